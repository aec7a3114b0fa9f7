import { compactVerify, CompactSign, errors } from 'jose';
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

/** The only algorithm accepted or made: a token naming any other (`none` included) is refused. */
export const JWT_ALGORITHMS = ['HS256'];
const HEADER = { alg: 'HS256', typ: 'JWT' } as const;

/**
 * The HMAC key of a secret, imported once: importing costs as much as a verification. The
 * server has one secret; the bound only keeps odd callers (a throw-away secret per call) from
 * growing it. A pure memo: nothing in it depends on which app asked.
 */
const keys = new Map<string, Promise<CryptoKey>>();
const MAX_KEYS = 16;
function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= MAX_KEYS) keys.clear();
    key = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    keys.set(secret, key);
  }
  return key;
}

/** Signs a session token (HS256, with `jose`). */
export async function signJwt(claims: Omit<SessionClaims, 'iat' | 'exp'>, secret: string, lifetimeSeconds: number, now = Date.now()): Promise<string> {
  const iat = Math.floor(now / 1000);
  const payload = new TextEncoder().encode(JSON.stringify({ ...claims, iat, exp: iat + lifetimeSeconds }));
  return new CompactSign(payload).setProtectedHeader(HEADER).sign(await hmacKey(secret));
}

/** The token's signature (HS256 only, with `jose`) and claim types; the times are checked apart. */
async function verifySignature(token: string, secret: string): Promise<SessionClaims> {
  let payload: Uint8Array;
  try {
    ({ payload } = await compactVerify(token, await hmacKey(secret), { algorithms: JWT_ALGORITHMS }));
  } catch (err) {
    if (err instanceof errors.JOSEAlgNotAllowed) throw new UnauthorizedError('Unsupported token algorithm');
    if (err instanceof errors.JWSSignatureVerificationFailed) throw new UnauthorizedError('Invalid token signature');
    throw new UnauthorizedError('Malformed token');
  }
  let claims: SessionClaims;
  try {
    claims = JSON.parse(new TextDecoder().decode(payload)) as SessionClaims;
  } catch {
    throw new UnauthorizedError('Malformed token');
  }
  if (typeof claims !== 'object' || claims === null) throw new UnauthorizedError('Malformed token');
  if (typeof claims.id !== 'number' || typeof claims.exp !== 'number' || typeof claims.iat !== 'number') throw new UnauthorizedError('Malformed token');
  return Object.freeze(claims);
}

function checkTimes(claims: SessionClaims, now: number): SessionClaims {
  // A token from the future would outlive every revocation (tokens_valid_after compares iat).
  if (claims.iat * 1000 > now + JWT_CLOCK_SKEW_SECONDS * 1000) throw new UnauthorizedError('Token issued in the future');
  if (claims.exp * 1000 <= now) throw new UnauthorizedError('Your authentication token has expired');
  return claims;
}

/**
 * Verifies a session token with `jose`: HS256 only (any other algorithm, `none` included, is
 * refused), then the claims' types, `iat` (not beyond the clock skew) and `exp`.
 */
export async function verifyJwt(token: string, secret: string, now = Date.now()): Promise<SessionClaims> {
  return checkTimes(await verifySignature(token, secret), now);
}

/** How many verified tokens a JwtVerifier keeps (about 1 KB each): far more than live sessions of one node. */
export const VERIFIED_TOKEN_CACHE_SIZE = 10_000;

/**
 * verifyJwt for one secret, remembering the tokens whose signature it has checked: `jose`
 * verifies through WebCrypto, about ten times the cost of the hand-written HMAC it replaced
 * (docs/decisions.md, issue 13), and every authenticated request pays it. Only tokens that
 * verified are kept (nobody without the secret can add one), and `iat` and `exp` are checked
 * against the clock at every call, so a remembered token still expires.
 */
export class JwtVerifier {
  private readonly verified = new Map<string, SessionClaims>();

  constructor(
    private readonly secret: string,
    private readonly maxEntries = VERIFIED_TOKEN_CACHE_SIZE,
  ) {}

  async verify(token: string, now = Date.now()): Promise<SessionClaims> {
    let claims = this.verified.get(token);
    if (!claims) {
      claims = await verifySignature(token, this.secret);
      if (this.verified.size >= this.maxEntries) this.verified.clear();
      this.verified.set(token, claims);
    }
    if (claims.exp * 1000 <= now) this.verified.delete(token);
    return checkTimes(claims, now);
  }
}
