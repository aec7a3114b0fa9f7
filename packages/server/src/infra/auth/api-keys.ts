import { createHash } from 'node:crypto';
import { alphanumericSecret } from './secret.js';

/**
 * API keys of every kind (user, provisioning, device): 33 letters and digits (192 bits, as the
 * 24 random bytes before issue 22); only their sha256 is stored, so keys issued before in
 * base64url keep working.
 */
export function generateApiKey(): string {
  return alphanumericSecret(192);
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
