import { createHmac, timingSafeEqual } from 'node:crypto';
import { UnauthorizedError } from '../errors.js';

/** Claims of a user session token (spec 1 §3 "token claims"). */
export interface SessionClaims {
  id: number; // user id
  authTime: number; // ms since epoch of the password (or 2FA) check
  actualUser?: number; // the staff user when an administrator acts as another user
  twoFactorRequired?: boolean; // absent: 2FA off; true: pending; false: passed
  permissions: string[];
  iat: number;
  exp: number;
}

/** How far in the future a token's `iat` may lie (clock skew between server nodes). */
export const JWT_CLOCK_SKEW_SECONDS = 60;

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

/** A JWT has three base64url segments and a JSON header; anything else is an API key. */
export function looksLikeJwt(token: string): boolean {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[0]) return false;
  try {
    const header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8')) as unknown;
    return typeof header === 'object' && header !== null && 'alg' in header;
  } catch {
    return false;
  }
}

function sign(input: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(input).digest();
}

export function signJwt(claims: Omit<SessionClaims, 'iat' | 'exp'>, secret: string, lifetimeSeconds: number, now = Date.now()): string {
  const iat = Math.floor(now / 1000);
  const payload = Buffer.from(JSON.stringify({ ...claims, iat, exp: iat + lifetimeSeconds })).toString('base64url');
  const body = `${HEADER}.${payload}`;
  return `${body}.${sign(body, secret).toString('base64url')}`;
}

/** Verifies an HS256 token. Any other algorithm (including `none`) is rejected. */
export function verifyJwt(token: string, secret: string, now = Date.now()): SessionClaims {
  const [h, p, s] = token.split('.');
  if (!h || !p || s === undefined) throw new UnauthorizedError('Malformed token');
  let header: { alg?: unknown };
  let claims: SessionClaims;
  try {
    header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as { alg?: unknown };
    claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as SessionClaims;
  } catch {
    throw new UnauthorizedError('Malformed token');
  }
  if (header.alg !== 'HS256') throw new UnauthorizedError('Unsupported token algorithm');
  const expected = sign(`${h}.${p}`, secret);
  const given = Buffer.from(s, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new UnauthorizedError('Invalid token signature');
  }
  if (typeof claims.id !== 'number' || typeof claims.exp !== 'number' || typeof claims.iat !== 'number') throw new UnauthorizedError('Malformed token');
  // A token from the future would outlive every revocation (tokens_valid_after compares iat).
  if (claims.iat * 1000 > now + JWT_CLOCK_SKEW_SECONDS * 1000) throw new UnauthorizedError('Token issued in the future');
  if (claims.exp * 1000 <= now) throw new UnauthorizedError('Your authentication token has expired');
  return claims;
}
