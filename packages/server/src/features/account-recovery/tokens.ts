import { createHash } from 'node:crypto';
import { alphanumericSecret } from '../../infra/auth/secret.js';

/** A random single-use secret for a mailed link: 256 bits of letters and digits (43). */
export function newSecret(): string {
  return alphanumericSecret(256);
}

/** What is stored instead of the secret: its sha256 (hex). */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
