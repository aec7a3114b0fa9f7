import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { createFileOnce } from '../../infra/files/write-once.js';
import { dirname } from 'node:path';
import { jwtVerify, SignJWT } from 'jose';

/**
 * Registry tokens: the Docker token protocol's bearer JWT (docs.docker.com "Token
 * Authentication Specification" and "Token Authentication Implementation"), signed with an
 * EC P-256 (ES256) or RSA (RS256) key. The header's `kid` is the libtrust key id of the public
 * key, which is what CNCF Distribution 2.8 looks up in its `rootcertbundle`.
 */

export interface Access {
  type: string;
  name: string;
  actions: string[];
}

/** Who a token was issued to, for answers that depend on more than its grants (the catalog). */
export interface TokenSubject {
  /** The actor id. */
  a: number;
  /** Which permission set: user, support, admin (platform roles), device, application. */
  p: 'user' | 'support' | 'admin' | 'device' | 'application';
}

export interface TokenClaims {
  sub: string;
  access: Access[];
  flotilla?: TokenSubject;
}

/** How long a registry token lives (docs/decisions.md, issue 14 — registry). */
export const REGISTRY_TOKEN_TTL_SECONDS = 600;

/** libtrust's key id: the first 240 bits of SHA-256 over the DER public key, base32, in 12 groups of 4. */
export function libtrustKeyId(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  const der = publicKey.export({ type: 'spki', format: 'der' });
  const sum = createHash('sha256').update(der).digest().subarray(0, 30);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of sum) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out.match(/.{4}/g)!.join(':');
}

export class TokenSigner {
  readonly kid: string;
  readonly alg: 'ES256' | 'RS256';
  private readonly publicKey: KeyObject;

  constructor(
    private readonly privateKey: KeyObject,
    readonly issuer: string,
    readonly service: string,
    private readonly now: () => number = Date.now,
  ) {
    this.publicKey = createPublicKey(privateKey);
    this.kid = libtrustKeyId(this.publicKey);
    const type = privateKey.asymmetricKeyType;
    if (type === 'ec') this.alg = 'ES256';
    else if (type === 'rsa') this.alg = 'RS256';
    else throw new Error('FLOTILLA_REGISTRY_TOKEN_KEY must be an EC P-256 or RSA private key');
  }

  async sign(claims: TokenClaims): Promise<{ token: string; issuedAt: Date; expiresIn: number }> {
    const nowSeconds = Math.floor(this.now() / 1000);
    const token = await new SignJWT({ access: claims.access, ...(claims.flotilla ? { flotilla: claims.flotilla } : {}) })
      .setProtectedHeader({ alg: this.alg, typ: 'JWT', kid: this.kid })
      .setIssuer(this.issuer)
      .setSubject(claims.sub)
      .setAudience(this.service)
      .setIssuedAt(nowSeconds)
      // A little slack for clocks of an external registry that run behind.
      .setNotBefore(nowSeconds - 5)
      .setExpirationTime(nowSeconds + REGISTRY_TOKEN_TTL_SECONDS)
      .setJti(randomUUID())
      .sign(this.privateKey);
    return { token, issuedAt: new Date(nowSeconds * 1000), expiresIn: REGISTRY_TOKEN_TTL_SECONDS };
  }

  /** The claims of a token this signer issued for its service, or null (bad signature, expired, another audience…). */
  async verify(token: string): Promise<TokenClaims | null> {
    try {
      const { payload, protectedHeader } = await jwtVerify(token, this.publicKey, {
        issuer: this.issuer,
        audience: this.service,
        algorithms: [this.alg],
        currentDate: new Date(this.now()),
      });
      if (protectedHeader.kid !== this.kid || typeof payload.sub !== 'string' || !Array.isArray(payload.access)) return null;
      return payload as unknown as TokenClaims;
    } catch {
      return null;
    }
  }
}

/**
 * The signing key: FLOTILLA_REGISTRY_TOKEN_KEY's PEM when configured (external registries
 * trust its certificate), else a P-256 key generated once and kept in `keyFile` (embedded mode).
 */
export async function loadTokenKey(pem: string | undefined, keyFile: string): Promise<KeyObject> {
  if (pem !== undefined) return createPrivateKey(pem);
  try {
    return createPrivateKey(await readFile(keyFile, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const text = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
  await mkdir(dirname(keyFile), { recursive: true });
  // Whole or not at all (a kill mid-write must not leave a key no later start can read);
  // when another process made it first, theirs is used.
  if (await createFileOnce(keyFile, text)) return privateKey;
  return createPrivateKey(await readFile(keyFile, 'utf8'));
}

/** Parses `repository:<name>:<actions>` (and `registry:catalog:*`) scopes; unknown shapes are dropped. */
export function parseScopes(scopes: readonly string[]): Access[] {
  const out: Access[] = [];
  for (const scope of scopes) {
    for (const one of scope.split(' ')) {
      const first = one.indexOf(':');
      const last = one.lastIndexOf(':');
      if (first <= 0 || last === first) continue;
      const type = one.slice(0, first);
      const name = one.slice(first + 1, last);
      const actions = one.slice(last + 1).split(',').filter((a) => a !== '');
      if (type !== 'repository' && type !== 'registry') continue;
      const existing = out.find((a) => a.type === type && a.name === name);
      if (existing) existing.actions = [...new Set([...existing.actions, ...actions])];
      else out.push({ type, name, actions: [...new Set(actions)] });
    }
  }
  return out;
}
