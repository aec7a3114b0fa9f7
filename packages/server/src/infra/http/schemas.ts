/** Schemas shared by custom routes (infra/http/route-schemas.ts requires one for every input). */

/**
 * A route that reads no body: absent (no type, so an absent body passes), or an empty object,
 * array or string (what clients send); anything with content is refused.
 */
export const EMPTY_BODY = { maxProperties: 0, maxItems: 0, maxLength: 0 } as const;

/** `:id` path parameters: a positive 32-bit integer. */
export const ID_PARAMS = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } } } as const;

/** A device uuid in a path: 32 or 62 hex digits in balena, any 1–62 hex digits accepted. */
export const DEVICE_UUID = { type: 'string', maxLength: 62, pattern: '^[0-9a-fA-F]{1,62}$' } as const;
