import { FLEET_NAME_MAX_LENGTH, FLEET_NAME_MIN_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants.js';

/** Pure validation rules shared by server (which decides) and web (which mirrors). */

/** Spec 1 §5: non-space characters around an @ and a dot. */
export function isValidEmail(email: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);
}

export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return `Password must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH) return 'Password exceeds limit, must be reset to at most 64 characters';
  return undefined;
}

/** Spec 2 §5: 4–100 characters; letters, digits, hyphens and underscores. */
export function fleetNameProblem(name: string): string | undefined {
  if (name.length < FLEET_NAME_MIN_LENGTH) return `The name must be at least ${FLEET_NAME_MIN_LENGTH} characters long`;
  if (name.length > FLEET_NAME_MAX_LENGTH) return `The name must be at most ${FLEET_NAME_MAX_LENGTH} characters long`;
  if (!/^[A-Za-z0-9_-]+$/.test(name)) return 'The name may only contain letters, digits, hyphens and underscores';
  return undefined;
}

/**
 * balena's wording of the fleet name length rule (open-balena-api's model), which balena-sdk
 * users match on: the API answers it for a name outside 4–100 characters. The dashboard,
 * which checks names before it sends them, keeps the plainer texts of `fleetNameProblem`.
 */
export const FLEET_NAME_LENGTH_RULE = `It is necessary that each application has an app name that has a Length (Type) that is greater than or equal to ${FLEET_NAME_MIN_LENGTH} and is less than or equal to ${FLEET_NAME_MAX_LENGTH}.`;

/** The API's refusal of a fleet name: balena's text for the length rule, ours for the characters. */
export function fleetNameApiProblem(name: string): string | undefined {
  if (name.length < FLEET_NAME_MIN_LENGTH || name.length > FLEET_NAME_MAX_LENGTH) return FLEET_NAME_LENGTH_RULE;
  return fleetNameProblem(name);
}

/**
 * Spec 2 §5: an application name is unique, case-insensitively, across the user's
 * applications; the message names the class of the one it clashes with.
 */
export function applicationNameClash(name: string, existing: readonly { app_name: string; is_of__class: string }[]): string | undefined {
  const wanted = name.toLowerCase();
  const clash = existing.find((a) => a.app_name.toLowerCase() === wanted);
  if (!clash) return undefined;
  const noun = clash.is_of__class === 'app' ? 'An app' : clash.is_of__class === 'block' ? 'A block' : 'A fleet';
  return `${noun} with this name already exists`;
}

/** Organization handles: lowercase [a-z0-9_], derived from a name or username. */
export function toHandle(name: string): string {
  const h = name
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return h.length > 0 ? h.slice(0, 100) : 'org';
}

/** A username derived from an email's local part: lowercase [a-z0-9_]. */
export function usernameFromEmail(email: string): string {
  const local = email.split('@')[0] ?? '';
  return toHandle(local).slice(0, 60) || 'user';
}

/** Fleet slugs: lowercase `orghandle/app_name`. */
export function applicationSlug(orgHandle: string, appName: string): string {
  return `${orgHandle}/${appName}`.toLowerCase();
}
