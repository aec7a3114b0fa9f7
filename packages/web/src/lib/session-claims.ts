/** The session token's claims the dashboard shows (spec 1 §3 "token claims"). */
export interface SessionClaims {
  id: number;
  /** The platform administrator who logged in as this user, or null for the user's own session. */
  actedBy: number | null;
  permissions: readonly string[];
  /**
   * Spec 1 §4: 'disabled' when the token has no two-factor flag, 'pending' when it is
   * required, 'passed' otherwise. The user is fully logged in only when not pending.
   */
  twoFactor: TwoFactorState;
}

export type TwoFactorState = 'disabled' | 'pending' | 'passed';

/** Decodes a JWT's payload (no verification: the server alone decides; this only picks UI). */
export function decodeSessionClaims(token: string): SessionClaims | null {
  const payload = token.split('.')[1];
  if (!payload) return null; // an API key, not a session token
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const claims = JSON.parse(json) as { id?: unknown; actualUser?: unknown; permissions?: unknown; twoFactorRequired?: unknown };
    if (typeof claims.id !== 'number') return null;
    const actualUser = typeof claims.actualUser === 'number' ? claims.actualUser : claims.id;
    return {
      id: claims.id,
      actedBy: actualUser === claims.id ? null : actualUser,
      permissions: Array.isArray(claims.permissions) ? claims.permissions.filter((p): p is string => typeof p === 'string') : [],
      twoFactor: claims.twoFactorRequired === true ? 'pending' : claims.twoFactorRequired === false ? 'passed' : 'disabled',
    };
  } catch {
    return null;
  }
}

/** Provider staff (support agents and platform administrators): spec 3 §6 admin link. */
export const isProviderStaff = (claims: SessionClaims | null) => !!claims?.permissions.includes('support.home');
export const isPlatformAdministrator = (claims: SessionClaims | null) => !!claims?.permissions.includes('admin.home');

/** Provider staff (spec 1 §6): platform administrators and support agents. */
export type PlatformStaffRole = 'administrator' | 'support_agent';

/** The caller's platform staff role, from the token's permissions claim; null for everyone else. */
export function platformStaffRole(claims: SessionClaims | null): PlatformStaffRole | null {
  if (isPlatformAdministrator(claims)) return 'administrator';
  if (isProviderStaff(claims)) return 'support_agent';
  return null;
}
