import { BadRequestError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';

const FIELD = 'is_accessible_by_support_until__date';

/**
 * Rule: support access is granted until a moment in the future, or revoked with null (spec
 * 2 §5: the expiry date must be in the future). Fleets and devices alike. The engine has
 * already turned the value (an ISO string or, from balena-sdk, a millisecond timestamp)
 * into an ISO string.
 */
export function checkSupportAccessExpiry(body: HookBody<'application' | 'device', 'POST' | 'PATCH'>, now: number): void {
  const value = body[FIELD];
  if (value === undefined || value === null) return;
  if (new Date(value as string).getTime() <= now) {
    throw new BadRequestError('Support access can only be granted until a date in the future');
  }
}
