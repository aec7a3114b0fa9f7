import { LAST_ADMINISTRATOR_RULE } from '@flotilla/model';
import type { TFunction } from 'i18next';

/** The shape balena-sdk errors share (balena-errors sets `code` on the prototype). */
interface SdkError {
  code?: string;
  statusCode?: number;
  body?: unknown;
  message?: string;
}

const MAX_ERROR_TEXT = 500;

function asSdkError(err: unknown): SdkError {
  return typeof err === 'object' && err !== null ? (err as SdkError) : {};
}

export function errorStatus(err: unknown): number | undefined {
  return asSdkError(err).statusCode;
}

/** The server's 401 texts for a revoked or expired session token (spec 1 §8). */
const SESSION_ENDED = new Set(['Your session has expired', 'Your authentication token has expired']);

/** Not-logged-in or expired-token errors sign the user out (spec 1 §8). */
export function isSessionError(err: unknown): boolean {
  const { code, statusCode, body } = asSdkError(err);
  return code === 'BalenaNotLoggedIn' || code === 'BalenaExpiredToken' || (statusCode === 401 && SESSION_ENDED.has(body as string));
}

/** Session storage key of why the user was signed out; the login page shows it once. */
export const SIGNED_OUT_REASON_KEY = 'flotilla.signedOutReason';

/** The spec's text for a session error (the login page's notice). */
export function sessionEndReason(err: unknown): string {
  const { code, body } = asSdkError(err);
  if (SESSION_ENDED.has(body as string)) return body as string;
  return code === 'BalenaExpiredToken' ? 'Your authentication token has expired' : 'You have to log in';
}

/** The server's own text: balena bodies are a JSON string, or `{error|message}`. */
function bodyText(body: unknown): string | undefined {
  if (typeof body === 'string') return body;
  if (typeof body === 'object' && body !== null) {
    const b = body as { message?: unknown; error?: unknown };
    if (typeof b.message === 'string') return b.message;
    if (typeof b.error === 'string') return b.error;
    if (typeof b.error === 'object' && b.error !== null && typeof (b.error as { text?: unknown }).text === 'string') {
      return (b.error as { text: string }).text;
    }
  }
  return undefined;
}

/**
 * Spec 1 §8: HTML error bodies are reduced to the text after 'error:', and error text
 * over 500 characters is cut to 500.
 */
export function tidyErrorText(text: string): string {
  let out = text.trim();
  if (/^<(!doctype|html)/i.test(out)) {
    const after = /error:\s*([\s\S]*)/i.exec(out.replace(/<[^>]*>/g, ' '));
    out = (after?.[1] ?? out.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim();
  }
  return out.length > MAX_ERROR_TEXT ? out.slice(0, MAX_ERROR_TEXT) : out;
}

/** Error keys the server answers with (a 400 body), shown as their English text. */
const SERVER_ERROR_KEYS = {
  cannot_delete_last_organization_admin: 'errors.cannot_delete_last_organization_admin',
  invalid_email: 'errors.invalid_email',
  invitee_already_exist: 'errors.invitee_already_exist',
  invitee_already_invited: 'errors.invitee_already_invited',
  invalid_password: 'errors.invalid_password',
  password_not_set: 'errors.password_not_set',
} as const;

/** Rule texts the server answers in balena's words, shown as the spec's message for them. */
const SERVER_RULE_TEXTS: Readonly<Record<string, keyof typeof SERVER_ERROR_KEYS>> = {
  [LAST_ADMINISTRATOR_RULE]: 'cannot_delete_last_organization_admin',
};

function isServerErrorKey(text: string): text is keyof typeof SERVER_ERROR_KEYS {
  return Object.hasOwn(SERVER_ERROR_KEYS, text);
}

/** What a toast says for an error thrown by balena-sdk (or anything else, or a message). */
export function errorMessage(err: unknown, t: TFunction): string {
  // A message the dashboard itself decided on (e.g. 'Invalid id passed in url').
  if (typeof err === 'string') return tidyErrorText(err);
  const e = asSdkError(err);
  switch (e.code) {
    case 'BalenaInvalidLoginCredentials':
      return t('errors.invalid_login_credentials');
    case 'BalenaTooManyRequests':
      return t('errors.too_many_requests');
    case 'BalenaNotLoggedIn':
      return t('errors.not_logged_in');
    case 'BalenaExpiredToken':
      return t('errors.token_expired');
  }
  if (e.statusCode === 429) return t('errors.too_many_requests');
  // No answer at all (spec 3 §8 "Offline API: generic message"), not fetch's 'Failed to fetch'.
  if (e.statusCode === undefined && showsApiUnreachable(err)) return t('errors.server_unreachable');
  const text = bodyText(e.body) ?? (typeof e.message === 'string' && e.message.length > 0 ? e.message : undefined);
  const key = text?.trim();
  if (key !== undefined && isServerErrorKey(key)) return t(SERVER_ERROR_KEYS[key]);
  if (key !== undefined && Object.hasOwn(SERVER_RULE_TEXTS, key)) return t(SERVER_ERROR_KEYS[SERVER_RULE_TEXTS[key]!]);
  return text ? tidyErrorText(text) : t('errors.unknown_error');
}

/** The shape of what balena-request rejects with (its errors and fetch's). */
interface RequestFailure {
  statusCode?: unknown;
  code?: unknown;
  name?: unknown;
  message?: unknown;
}

/**
 * A failed request that shows the API unreachable: no answer at all (fetch's network error,
 * balena-request's 'network timeout') or a gateway's 502/503/504. Errors the SDK raises before
 * sending (not logged in, expired token) and a caller's own abort are not.
 */
export function showsApiUnreachable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { statusCode, code, name, message } = err as RequestFailure;
  if (typeof statusCode === 'number') return statusCode === 502 || statusCode === 503 || statusCode === 504;
  if (typeof code === 'string' && code.startsWith('Balena')) return false;
  if (name === 'AbortError') return false;
  if (name === 'TypeError' || name === 'TimeoutError') return true;
  return typeof message === 'string' && /network|failed to fetch|load failed/i.test(message);
}
