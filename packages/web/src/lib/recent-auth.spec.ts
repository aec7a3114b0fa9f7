import { describe, expect, it } from 'vitest';
import { authTimeOf, needsReverification } from './recent-auth';

const tokenWith = (claims: object) => `h.${btoa(JSON.stringify(claims)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')}.s`;

describe('re-verification window', () => {
  it('reads authTime from a session token', () => {
    expect(authTimeOf(tokenWith({ id: 1, authTime: 1234 }))).toBe(1234);
    expect(authTimeOf('an-api-key')).toBeNull();
    expect(authTimeOf(null)).toBeNull();
  });

  it('asks again a minute before the 20 minutes are over, and always without authTime', () => {
    const authTime = 10_000_000;
    const token = tokenWith({ authTime });
    expect(needsReverification(token, authTime + 18 * 60_000)).toBe(false);
    expect(needsReverification(token, authTime + 19 * 60_000 + 1)).toBe(true);
    expect(needsReverification(tokenWith({ id: 1 }), authTime)).toBe(true);
  });
});
