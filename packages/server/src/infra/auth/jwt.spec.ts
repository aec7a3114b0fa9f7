import { describe, expect, it } from 'vitest';
import { JWT_CLOCK_SKEW_SECONDS, signJwt, verifyJwt } from './jwt.js';

const SECRET = 'a-secret-that-is-long-enough-for-tests-0123456789';
const claims = { id: 1, authTime: 0, permissions: [] };

describe('verifyJwt', () => {
  it('rejects a token whose iat lies in the future beyond the clock skew', () => {
    const now = Date.now();
    const future = signJwt(claims, SECRET, 3600, now + (JWT_CLOCK_SKEW_SECONDS + 60) * 1000);
    expect(() => verifyJwt(future, SECRET, now)).toThrow('Token issued in the future');
  });

  it('accepts a token issued within the clock skew, and one issued now', () => {
    const now = Date.now();
    expect(verifyJwt(signJwt(claims, SECRET, 3600, now + (JWT_CLOCK_SKEW_SECONDS - 5) * 1000), SECRET, now).id).toBe(1);
    expect(verifyJwt(signJwt(claims, SECRET, 3600, now), SECRET, now).id).toBe(1);
  });
});
