import type { TFunction } from 'i18next';
import { LAST_ADMINISTRATOR_RULE } from '@flotilla/model';
import { describe, expect, it } from 'vitest';
import { errorMessage, isSessionError, sessionEndReason, tidyErrorText } from './errors';

const t = ((key: string) => `t:${key}`) as unknown as TFunction;
/** balena-errors set `code` on the prototype; a plain object with the same fields will do. */
const sdkError = (fields: Record<string, unknown>) => Object.assign(new Error(String(fields.message ?? '')), fields);

describe('errorMessage', () => {
  it('says "Invalid login credentials" for a 401 from POST /login_', () => {
    expect(errorMessage(sdkError({ code: 'BalenaInvalidLoginCredentials' }), t)).toBe('t:errors.invalid_login_credentials');
  });

  it('says "Too Many Requests. Try again later" for a 429, from the SDK error or a bare status', () => {
    expect(errorMessage(sdkError({ code: 'BalenaTooManyRequests' }), t)).toBe('t:errors.too_many_requests');
    expect(errorMessage(sdkError({ code: 'BalenaRequestError', statusCode: 429, body: 'slow down' }), t)).toBe('t:errors.too_many_requests');
  });

  it("shows the server's own text rather than the SDK's 'Request error:' prefix", () => {
    const err = sdkError({ code: 'BalenaRequestError', statusCode: 400, body: 'Organization name is required', message: 'Request error: Organization name is required' });
    expect(errorMessage(err, t)).toBe('Organization name is required');
  });

  it('reads {error: {text}} and {message} bodies', () => {
    expect(errorMessage(sdkError({ statusCode: 400, body: { error: { text: 'nested' } } }), t)).toBe('nested');
    expect(errorMessage(sdkError({ statusCode: 400, body: { message: 'plain' } }), t)).toBe('plain');
  });

  it('shows the English text of an error key the server answers with', () => {
    const err = sdkError({ code: 'BalenaRequestError', statusCode: 400, body: 'cannot_delete_last_organization_admin' });
    expect(errorMessage(err, t)).toBe('t:errors.cannot_delete_last_organization_admin');
    for (const key of ['invalid_email', 'invitee_already_exist', 'invitee_already_invited']) {
      expect(errorMessage(sdkError({ code: 'BalenaRequestError', statusCode: 400, body: key }), t)).toBe(`t:errors.${key}`);
    }
  });

  it("shows the spec's message for a rule the server words as balena does", () => {
    const err = sdkError({ code: 'BalenaRequestError', statusCode: 400, body: LAST_ADMINISTRATOR_RULE });
    expect(errorMessage(err, t)).toBe('t:errors.cannot_delete_last_organization_admin');
  });

  it('says the server cannot be reached when no answer came (spec 3 §8 "Offline API"), not fetch\'s own text', () => {
    expect(errorMessage(new TypeError('Failed to fetch'), t)).toBe('t:errors.server_unreachable');
    expect(errorMessage(new Error('network timeout'), t)).toBe('t:errors.server_unreachable');
    // A gateway's HTML answer keeps its (tidied) text.
    expect(errorMessage(sdkError({ statusCode: 502, body: '<html><body>Error: upstream down</body></html>' }), t)).toBe('upstream down');
  });

  it('falls back to a generic message when there is no text', () => {
    expect(errorMessage(undefined, t)).toBe('t:errors.unknown_error');
  });
});

describe('tidyErrorText', () => {
  it('cuts error text over 500 characters to 500 (spec 1 §8)', () => {
    expect(tidyErrorText('x'.repeat(600))).toHaveLength(500);
  });

  it('cuts text from an HTML body to 500 characters too, and leaves short text alone', () => {
    expect(tidyErrorText(`<!DOCTYPE html><html><body><p>error: ${'y'.repeat(700)}</p></body></html>`)).toBe('y'.repeat(500));
    expect(tidyErrorText('  Fleet name is taken  ')).toBe('Fleet name is taken');
  });

  it("reduces an HTML error body to the text after 'error:' (spec 1 §8)", () => {
    expect(tidyErrorText('<html><body><h1>502</h1><p>Error: upstream went away</p></body></html>')).toBe('upstream went away');
  });
});

describe('isSessionError', () => {
  it('is true for not-logged-in and expired-token errors only', () => {
    expect(isSessionError(sdkError({ code: 'BalenaNotLoggedIn' }))).toBe(true);
    expect(isSessionError(sdkError({ code: 'BalenaExpiredToken' }))).toBe(true);
    expect(isSessionError(sdkError({ code: 'BalenaRequestError', statusCode: 401 }))).toBe(false);
  });

  it("is true for a 401 saying the session or token has expired (a revoked session), not for 'You have to log in'", () => {
    expect(isSessionError(sdkError({ code: 'BalenaRequestError', statusCode: 401, body: 'Your session has expired' }))).toBe(true);
    expect(isSessionError(sdkError({ code: 'BalenaRequestError', statusCode: 401, body: 'Your authentication token has expired' }))).toBe(true);
    // The re-verification answer reopens the password dialog instead (spec 1 §4).
    expect(isSessionError(sdkError({ code: 'BalenaRequestError', statusCode: 401, body: 'You have to log in' }))).toBe(false);
    expect(isSessionError(sdkError({ code: 'BalenaRequestError', statusCode: 400, body: 'Your session has expired' }))).toBe(false);
  });

  it('gives the reason the login page shows', () => {
    expect(sessionEndReason(sdkError({ statusCode: 401, body: 'Your session has expired' }))).toBe('Your session has expired');
    expect(sessionEndReason(sdkError({ code: 'BalenaExpiredToken' }))).toBe('Your authentication token has expired');
  });
});
