/** Schemas shared by custom routes (infra/http/route-schemas.ts requires one for every input). */
import { user, type ResourceDef } from '@flotilla/model';

/**
 * A route that reads no body: absent (no type, so an absent body passes), or an empty object,
 * array or string (what clients send); anything with content is refused.
 */
export const EMPTY_BODY = { maxProperties: 0, maxItems: 0, maxLength: 0 } as const;

/** `:id` path parameters: a positive 32-bit integer. */
export const ID_PARAMS = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } } } as const;

/** A device uuid in a path: 32 or 62 hex digits in balena, any 1–62 hex digits accepted. */
export const DEVICE_UUID = { type: 'string', maxLength: 62, pattern: '^[0-9a-fA-F]{1,62}$' } as const;

/** A resource field's declared maxLength in the model (the schema limits follow the model). */
function modelMaxLength(resource: ResourceDef, field: string): number {
  const max = resource.fields.find((f) => f.name === field)?.maxLength;
  if (max === undefined) throw new Error(`${resource.name}.${field} declares no maxLength`);
  return max;
}

/**
 * The longest password a route reads: above the model's PASSWORD_MAX_LENGTH so a longer one
 * gets the spec's message from the service (or a failed login), not a schema error; bounded
 * so hashing stays cheap.
 */
export const PASSWORD_INPUT_MAX_LENGTH = 1024;

/** A password given by the caller (login, re-verification, a change). */
export const PASSWORD = { type: 'string', minLength: 1, maxLength: PASSWORD_INPUT_MAX_LENGTH } as const;

/** A password the route checks itself (absent or empty gets the route's own message). */
export const OPTIONAL_PASSWORD = { type: 'string', maxLength: PASSWORD_INPUT_MAX_LENGTH } as const;

/** An email address as typed (the user's email column bounds it). */
export const EMAIL = { type: 'string', minLength: 1, maxLength: modelMaxLength(user, 'email') } as const;

/** A username or email as typed at login (the user's username column bounds it). */
export const USERNAME = { type: 'string', minLength: 1, maxLength: modelMaxLength(user, 'username') } as const;

/** A URL given by the caller (a redirect, a repository). */
export const URL_INPUT = { type: 'string', maxLength: 2000 } as const;

/** A short code or name the route checks itself (a grant type, a one-time code, a role). */
export const SHORT_CODE = { type: 'string', maxLength: 64 } as const;

/** An object schema: the properties, the required ones listed. */
export function objectOf<P extends Record<string, object>, R extends readonly (keyof P & string)[]>(
  properties: P,
  required?: R,
): { type: 'object'; required?: R; properties: P } {
  return required === undefined ? { type: 'object', properties } : { type: 'object', required, properties };
}

/** A body holding only the caller's password (a re-check before a sensitive action). */
export const PASSWORD_BODY = objectOf({ password: PASSWORD }, ['password']);

/** A captcha answer (`g-recaptcha-response`) sent with a sign-up or a password-reset request. */
export const CAPTCHA_RESPONSE = { type: 'string', maxLength: 4096 } as const;
