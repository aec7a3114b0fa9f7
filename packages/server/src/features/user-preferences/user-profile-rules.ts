import { HEADER_COLOR_INVALID, HEADER_COLOR_PATTERN, PROFILE_FIELD_LABELS, PROFILE_FIELDS } from '@flotilla/model';
import { BadRequestError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';

/**
 * Rules on a user's own row (spec 1 §5 profile, §2 appearance): the profile fields, when
 * written, are required (trimmed, not empty; account_type's values are the model's enum);
 * the header colour is `#rrggbb` (stored lowercase) or null for the theme's.
 */
export function checkUserPreferences(body: HookBody<'user', 'PATCH'>): void {
  for (const field of PROFILE_FIELDS) {
    if (!(field in body)) continue;
    const value = body[field];
    const trimmed = typeof value === 'string' ? value.trim() : '';
    if (trimmed === '') throw new BadRequestError(`${PROFILE_FIELD_LABELS[field]} is required`);
    // account_type's value was checked against its enum already; trimming keeps it.
    (body as Record<string, unknown>)[field] = trimmed;
  }
  if ('header_color' in body && body.header_color !== null) {
    const color = typeof body.header_color === 'string' ? body.header_color.trim() : '';
    if (!HEADER_COLOR_PATTERN.test(color)) throw new BadRequestError(HEADER_COLOR_INVALID);
    body.header_color = color.toLowerCase();
  }
}
