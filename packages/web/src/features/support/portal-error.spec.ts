import { describe, expect, it } from 'vitest';
import { portalErrorKey } from './portal-error';

describe('support portal sign-in errors (spec 1 §8)', () => {
  it("maps 'not authorized' to no support access, a missing portal to its explanation, anything else to the unknown access error", () => {
    expect(portalErrorKey({ statusCode: 403, body: 'You are not authorized to sign in to the support portal' })).toBe('errors.no_support_access');
    expect(portalErrorKey({ statusCode: 404, body: 'No external support portal is configured' })).toBe('not_configured');
    expect(portalErrorKey({ statusCode: 502, body: 'Bad Gateway' })).toBe('errors.unknown_access_error');
    expect(portalErrorKey(new Error('network down'))).toBe('errors.unknown_access_error');
  });
});
