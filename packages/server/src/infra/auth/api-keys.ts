import { createHash, randomBytes } from 'node:crypto';

/** API keys are random 32-character strings; only their sha256 is stored. */
export function generateApiKey(): string {
  return randomBytes(24).toString('base64url');
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
