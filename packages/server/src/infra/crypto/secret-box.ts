import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/** What a sealed value starts with: the format's version, so a later one can be told apart. */
export const SEALED_PREFIX = 'sealed1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Secrets the server must read back (TOTP secrets) are stored sealed: AES-256-GCM under a
 * key that is not in the database (FLOTILLA_SECRETS_KEY, or a key file in the data
 * directory), so a copy of the database alone does not reveal them. A value without the
 * prefix is a plaintext one from before sealing and is read as it is.
 */
export class SecretBox {
  readonly #key: Buffer;
  /** An HMAC of a fixed text under the key: stored once, it tells whether a key is the database's. */
  readonly checkValue: string;

  constructor(keyMaterial: string) {
    if (keyMaterial.length < 32) throw new Error('the secrets key must be at least 32 characters');
    this.#key = Buffer.from(hkdfSync('sha256', keyMaterial, 'flotilla', 'flotilla secret box v1', 32));
    this.checkValue = createHmac('sha256', this.#key).update('flotilla secrets key check').digest('base64url');
  }

  seal(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /** The plaintext of a sealed value (throws when it was sealed under another key or altered). */
  open(stored: string): string {
    if (!isSealed(stored)) return stored;
    const raw = Buffer.from(stored.slice(SEALED_PREFIX.length), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}

export const isSealed = (value: string): boolean => value.startsWith(SEALED_PREFIX);
