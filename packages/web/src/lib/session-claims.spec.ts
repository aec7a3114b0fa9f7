import { describe, expect, it } from 'vitest';
import { decodeSessionClaims, isPlatformAdministrator, isProviderStaff, platformStaffRole } from './session-claims';

const jwt = (claims: object) => `eyJhbGciOiJIUzI1NiJ9.${btoa(JSON.stringify(claims)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}.sig`;

describe('decodeSessionClaims', () => {
  it("reads a user's own session: no actedBy", () => {
    expect(decodeSessionClaims(jwt({ id: 7, actualUser: 7, permissions: ['support.home'] }))).toEqual({
      id: 7,
      actedBy: null,
      permissions: ['support.home'],
      twoFactor: 'disabled',
    });
  });

  it('reads the two-factor state: no flag is disabled, true pending, false passed', () => {
    expect(decodeSessionClaims(jwt({ id: 7, permissions: [] }))?.twoFactor).toBe('disabled');
    expect(decodeSessionClaims(jwt({ id: 7, twoFactorRequired: true, permissions: [] }))?.twoFactor).toBe('pending');
    expect(decodeSessionClaims(jwt({ id: 7, twoFactorRequired: false, permissions: [] }))?.twoFactor).toBe('passed');
  });

  it('marks a login-as session with the administrator as actedBy', () => {
    expect(decodeSessionClaims(jwt({ id: 7, actualUser: 1, permissions: [] }))?.actedBy).toBe(1);
  });

  it('treats an API key or a malformed token as no claims', () => {
    expect(decodeSessionClaims('plainapikey')).toBeNull();
    expect(decodeSessionClaims('a.!!!.c')).toBeNull();
    expect(decodeSessionClaims(jwt({ permissions: ['admin.home'] }))).toBeNull();
  });
});

describe('staff checks', () => {
  it('calls support agents and platform administrators provider staff, and only the latter administrators', () => {
    const support = decodeSessionClaims(jwt({ id: 2, permissions: ['support.home'] }));
    const admin = decodeSessionClaims(jwt({ id: 3, permissions: ['admin.home', 'support.home'] }));
    const user = decodeSessionClaims(jwt({ id: 4, permissions: [] }));
    expect([support, admin, user, null].map(isProviderStaff)).toEqual([true, true, false, false]);
    expect([support, admin, user, null].map(isPlatformAdministrator)).toEqual([false, true, false, false]);
    expect([support, admin, user, null].map(platformStaffRole)).toEqual(['support_agent', 'administrator', null, null]);
  });
});
