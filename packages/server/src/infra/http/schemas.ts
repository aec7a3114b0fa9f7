/** Schemas shared by custom routes (infra/http/route-schemas.ts requires one for every input). */

/** A route that reads no body: absent, or an empty object (what balena-sdk sends). */
export const EMPTY_BODY = { type: 'object', maxProperties: 0 } as const;

/** `:id` path parameters: a positive 32-bit integer. */
export const ID_PARAMS = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } } } as const;

/** A device uuid in a path: 32 or 62 hex digits in balena, any 1–62 hex digits accepted. */
export const DEVICE_UUID = { type: 'string', pattern: '^[0-9a-fA-F]{1,62}$' } as const;
