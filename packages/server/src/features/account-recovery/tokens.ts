import { createHash, randomBytes } from 'node:crypto';

/** A random single-use secret for a mailed link: 32 bytes, URL-safe. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored instead of the secret: its sha256 (hex). */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
