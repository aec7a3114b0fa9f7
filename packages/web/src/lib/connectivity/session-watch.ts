import { SERVER_SESSION_CHECK_MS, SESSION_CHECK_INTERVAL_MS } from './constants';

/** What changed about the stored session token since the last look. */
export type SessionChange =
  /** Nothing that matters to this tab. */
  | { kind: 'none' }
  /** The token is gone: signed out in another tab or window. */
  | { kind: 'signed-out' }
  /** The token's own expiry has passed. */
  | { kind: 'expired' }
  /** Another user signed in (in another tab, or a login-as). */
  | { kind: 'user-changed' }
  /** A token appeared while this tab is signed out: signed in elsewhere. */
  | { kind: 'signed-in' };

/** The JWT claims the check reads (no verification: the server alone decides). */
export function tokenFacts(token: string): { userId: number | null; expiresAt: number | null } {
  const payload = token.split('.')[1];
  if (!payload) return { userId: null, expiresAt: null }; // an API key
  try {
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { id?: unknown; exp?: unknown };
    return {
      userId: typeof claims.id === 'number' ? claims.id : null,
      expiresAt: typeof claims.exp === 'number' ? claims.exp * 1000 : null,
    };
  } catch {
    return { userId: null, expiresAt: null };
  }
}

/**
 * Compares the stored token with this tab's session (spec 3 §9 "Session check interval is
 * 1 s"): `signedInUser` is the user this tab shows (null when signed out).
 */
export function sessionChange(signedInUser: number | null, stored: string | null, now: number): SessionChange {
  if (signedInUser === null) {
    if (stored === null) return { kind: 'none' };
    const { expiresAt } = tokenFacts(stored);
    return expiresAt !== null && expiresAt <= now ? { kind: 'none' } : { kind: 'signed-in' };
  }
  if (stored === null) return { kind: 'signed-out' };
  const { userId, expiresAt } = tokenFacts(stored);
  if (expiresAt !== null && expiresAt <= now) return { kind: 'expired' };
  if (userId !== null && userId !== signedInUser) return { kind: 'user-changed' };
  return { kind: 'none' };
}

export interface SessionWatchDeps {
  /** The stored session token (localStorage), or null. */
  readToken: () => string | null;
  /** The user this tab is signed in as, or null. */
  signedInUser: () => number | null;
  /** Acts on a change (sign out, reload …); called once per change. */
  onChange: (change: Exclude<SessionChange, { kind: 'none' }>) => void;
  now?: () => number;
}

/**
 * Looks at the stored token every second and at once when another tab writes it (the
 * `storage` event: `check(true)`). Reading localStorage costs no request, so nothing here
 * reaches the server; a session revoked on the server is seen by the next request's 401.
 * A token of another user (or one appearing) counts only when another tab wrote it: this tab's
 * own login, login-as or verification link writes the token before it sets its session.
 */
export class SessionWatch {
  #timer: ReturnType<typeof setInterval> | undefined;
  /** The last change acted on, so a signed-out tab is not signed out again every second. */
  #last: string | null = null;

  constructor(private readonly deps: SessionWatchDeps) {}

  start(intervalMs = SESSION_CHECK_INTERVAL_MS): void {
    this.stop();
    this.#timer = setInterval(() => this.check(false), intervalMs);
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  check(fromOtherTab: boolean): void {
    let change = sessionChange(this.deps.signedInUser(), this.deps.readToken(), (this.deps.now ?? Date.now)());
    if (!fromOtherTab && (change.kind === 'user-changed' || change.kind === 'signed-in')) change = { kind: 'none' };
    if (change.kind === 'none') {
      this.#last = null;
      return;
    }
    // The same change again (the sign-out not finished yet): acted on already.
    if (this.#last === change.kind) return;
    this.#last = change.kind;
    this.deps.onChange(change);
  }
}

export interface ServerSessionCheckDeps {
  /** Whether to ask now: signed in, the tab visible, the API not flagged offline. */
  active: () => boolean;
  /** An authenticated request that fails with the server's 401 when the session is gone. */
  verify: () => Promise<unknown>;
  /** Whether `verify`'s error says the session ended (rather than, say, a network error). */
  isSessionError: (err: unknown) => boolean;
  /** Acts on the ended session (sign out with the server's reason); once per ending. */
  onEnded: (err: unknown) => void;
}

/**
 * The server's half of the session check: every SERVER_SESSION_CHECK_MS a visible, signed-in
 * tab sends one authenticated request (never two at once); a session error ends the session.
 * One light request per tab every 15 s, only while someone looks at it.
 */
export class ServerSessionCheck {
  #timer: ReturnType<typeof setInterval> | undefined;
  #inFlight = false;

  constructor(private readonly deps: ServerSessionCheckDeps) {}

  start(intervalMs = SERVER_SESSION_CHECK_MS): void {
    this.stop();
    this.#timer = setInterval(() => void this.check(), intervalMs);
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  async check(): Promise<void> {
    if (this.#inFlight || !this.deps.active()) return;
    this.#inFlight = true;
    try {
      await this.deps.verify();
    } catch (err) {
      if (this.deps.isSessionError(err)) this.deps.onEnded(err);
    } finally {
      this.#inFlight = false;
    }
  }
}
