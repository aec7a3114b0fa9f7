/**
 * SSH public keys (spec 1 §3, §5): the key pattern, the mandatory-field messages, the
 * fingerprint shown beside each key and the titles of imported keys. Pure, shared by the
 * server (which enforces them) and the dashboard (which mirrors them).
 */

export const SSH_KEY_TITLE_REQUIRED = 'The key title is mandatory!';
export const SSH_KEY_REQUIRED = 'The key is mandatory!';
export const SSH_KEY_INVALID =
  'The key must start with ssh-rsa, ssh-dss, ssh-ed25519 or ecdsa-sha2-nistp256/384/521, followed by the base64-encoded key and an optional comment';

/** Key types the pattern accepts ({token} in the spec: the ECDSA curves OpenSSH writes). */
export const SSH_KEY_TYPES = ['ssh-rsa', 'ssh-dss', 'ssh-ed25519', 'ecdsa-sha2-nistp256', 'ecdsa-sha2-nistp384', 'ecdsa-sha2-nistp521'] as const;

/** Type, one space, base64 text, then an optional comment (spec 1 §5). */
export const SSH_KEY_PATTERN = new RegExp(`^(?:${SSH_KEY_TYPES.join('|')}) [A-Za-z0-9+/]+={0,2}(?: [^\\r\\n]*)?$`);

/** Imported keys are titled 'GitHub Key N' (spec 1 §5). */
export const IMPORTED_KEY_TITLE_PREFIX = 'GitHub Key ';

/** The trimmed title and key, or the first rule they break (the spec's message). */
export function validateSshKey(title: unknown, publicKey: unknown): { title: string; publicKey: string } | { error: string } {
  const t = typeof title === 'string' ? title.trim() : '';
  const k = typeof publicKey === 'string' ? publicKey.trim() : '';
  if (t === '') return { error: SSH_KEY_TITLE_REQUIRED };
  if (k === '') return { error: SSH_KEY_REQUIRED };
  if (!SSH_KEY_PATTERN.test(k) || decodeBase64(k.split(' ')[1]!) === null) return { error: SSH_KEY_INVALID };
  return { title: t, publicKey: k };
}

/** The type and base64 parts of a key, ignoring the comment: two keys are the same key when these match. */
export function sshKeyIdentity(publicKey: string): string {
  return publicKey.trim().split(/\s+/).slice(0, 2).join(' ');
}

/**
 * `count` titles 'GitHub Key N' for new imported keys, each N the first number not used by
 * `existingTitles` nor by an earlier title of this batch.
 */
export function importedKeyTitles(existingTitles: readonly string[], count: number): string[] {
  const used = new Set(existingTitles.map((t) => t.trim()));
  const titles: string[] = [];
  for (let n = 1; titles.length < count; n++) {
    const title = `${IMPORTED_KEY_TITLE_PREFIX}${n}`;
    if (!used.has(title)) titles.push(title);
  }
  return titles;
}

/** OpenSSH's `SHA256:…` fingerprint: SHA-256 of the decoded key, unpadded base64. Null for an unreadable key. */
export function sshKeyFingerprint(publicKey: string): string | null {
  const encoded = publicKey.trim().split(/\s+/)[1];
  const bytes = encoded === undefined ? null : decodeBase64(encoded);
  if (!bytes) return null;
  return `SHA256:${encodeBase64(sha256(bytes)).replace(/=+$/, '')}`;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Strict base64 (standard alphabet, optional padding); null when it is not base64. */
export function decodeBase64(text: string): Uint8Array | null {
  const s = text.replace(/=+$/, '');
  if (!/^[A-Za-z0-9+/]*$/.test(s) || s.length % 4 === 1 || text.length - s.length > 2) return null;
  const out = new Uint8Array(Math.floor((s.length * 3) / 4));
  let buffer = 0;
  let bits = 0;
  let i = 0;
  for (const ch of s) {
    buffer = (buffer << 6) | ALPHABET.indexOf(ch);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[i++] = (buffer >> bits) & 0xff;
    }
  }
  return out;
}

export function encodeBase64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += ALPHABET[(n >> 18) & 63]! + ALPHABET[(n >> 12) & 63]!;
    out += i + 1 < bytes.length ? ALPHABET[(n >> 6) & 63]! : '=';
    out += i + 2 < bytes.length ? ALPHABET[n & 63]! : '=';
  }
  return out;
}

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** SHA-256 (FIPS 180-4) in plain TypeScript: the dashboard may run outside a secure context, where crypto.subtle is missing. */
export function sha256(data: Uint8Array): Uint8Array {
  const length = data.length;
  const padded = new Uint8Array(Math.ceil((length + 9) / 64) * 64);
  padded.set(data);
  padded[length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(length / 0x20000000));
  view.setUint32(padded.length - 4, (length * 8) >>> 0);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + i * 4);
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!;
      const b = w[i - 2]!;
      const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3);
      const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = [h[0]!, h[1]!, h[2]!, h[3]!, h[4]!, h[5]!, h[6]!, h[7]!];
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    h[0] = (h[0]! + a) >>> 0;
    h[1] = (h[1]! + b) >>> 0;
    h[2] = (h[2]! + c) >>> 0;
    h[3] = (h[3]! + d) >>> 0;
    h[4] = (h[4]! + e) >>> 0;
    h[5] = (h[5]! + f) >>> 0;
    h[6] = (h[6]! + g) >>> 0;
    h[7] = (h[7]! + hh) >>> 0;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, h[i]!);
  return out;
}
