import { createHash } from 'node:crypto';
import { BadRequestError } from '../errors.js';
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

/** Parses an optional key expiry (user, provisioning and device keys); a date in the past is refused (spec 1 §5: no earlier than now). */
export function parseExpiry(value: string | null | undefined): Date | null {
  if (value === null || value === undefined) return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new BadRequestError('expiryDate must be an ISO 8601 date or null');
  if (date.getTime() <= Date.now()) throw new BadRequestError('expiryDate must be in the future');
  return date;
}
