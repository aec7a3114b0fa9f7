import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServerSessionCheck, sessionChange, SessionWatch, tokenFacts, type SessionChange } from './session-watch';

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (claims: object) => `${b64url({ alg: 'HS256' })}.${b64url(claims)}.signature`;
const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
const valid = (id: number) => jwt({ id, exp: NOW / 1000 + 3600 });

describe('sessionChange', () => {
  it('reads the user and the expiry of a session token', () => {
    expect(tokenFacts(valid(7))).toEqual({ userId: 7, expiresAt: NOW + 3_600_000 });
    expect(tokenFacts('an-api-key')).toEqual({ userId: null, expiresAt: null });
  });

  it('sees a token removed by another tab as signed out', () => {
    expect(sessionChange(7, null, NOW)).toEqual({ kind: 'signed-out' });
  });

  it('sees an expired token', () => {
    expect(sessionChange(7, jwt({ id: 7, exp: NOW / 1000 - 1 }), NOW)).toEqual({ kind: 'expired' });
  });

  it('sees another user signed in; a refreshed token of the same user changes nothing', () => {
    expect(sessionChange(7, valid(8), NOW)).toEqual({ kind: 'user-changed' });
    expect(sessionChange(7, valid(7), NOW)).toEqual({ kind: 'none' });
  });

  it('sees a sign-in elsewhere from a signed-out tab, but not an expired leftover token', () => {
    expect(sessionChange(null, valid(7), NOW)).toEqual({ kind: 'signed-in' });
    expect(sessionChange(null, jwt({ id: 7, exp: NOW / 1000 - 1 }), NOW)).toEqual({ kind: 'none' });
    expect(sessionChange(null, null, NOW)).toEqual({ kind: 'none' });
  });
});

describe('SessionWatch', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(NOW);
  });
  afterEach(() => vi.useRealTimers());

  it('looks every second and acts once per change', () => {
    let stored: string | null = valid(7);
    let user: number | null = 7;
    const changes: SessionChange['kind'][] = [];
    const reads = vi.fn(() => stored);
    const watch = new SessionWatch({ readToken: reads, signedInUser: () => user, onChange: (c) => changes.push(c.kind) });
    watch.start();
    vi.advanceTimersByTime(3_000);
    expect(reads).toHaveBeenCalledTimes(3);
    expect(changes).toEqual([]);
    stored = null; // another tab signed out
    vi.advanceTimersByTime(999);
    expect(changes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(changes).toEqual(['signed-out']);
    // Not again while this tab's sign-out is under way …
    vi.advanceTimersByTime(5_000);
    expect(changes).toEqual(['signed-out']);
    // … and once signed out, nothing more.
    user = null;
    vi.advanceTimersByTime(5_000);
    expect(changes).toEqual(['signed-out']);
    watch.stop();
  });

  it('signs out when the token expires, within a second', () => {
    const token = jwt({ id: 7, exp: NOW / 1000 + 10 });
    const changes: SessionChange['kind'][] = [];
    const watch = new SessionWatch({ readToken: () => token, signedInUser: () => 7, onChange: (c) => changes.push(c.kind) });
    watch.start();
    vi.advanceTimersByTime(10_000);
    expect(changes).toEqual(['expired']);
    watch.stop();
  });

  it('check(true) answers at once (the storage event of another tab), also for another user', () => {
    const changes: SessionChange['kind'][] = [];
    const watch = new SessionWatch({ readToken: () => valid(8), signedInUser: () => 7, onChange: (c) => changes.push(c.kind) });
    watch.check(true);
    expect(changes).toEqual(['user-changed']);
  });

  it("leaves another user's token alone when this tab wrote it (login-as sets its session just after)", () => {
    let user: number | null = 7;
    let stored: string | null = null;
    const changes: SessionChange['kind'][] = [];
    const watch = new SessionWatch({ readToken: () => stored, signedInUser: () => user, onChange: (c) => changes.push(c.kind) });
    watch.start();
    stored = valid(8);
    vi.advanceTimersByTime(3_000);
    user = 8;
    vi.advanceTimersByTime(1_000);
    // A signed-out tab logging in: the token is there a moment before the session.
    user = null;
    stored = valid(9);
    vi.advanceTimersByTime(2_000);
    expect(changes).toEqual([]);
    watch.stop();
  });
});

describe('ServerSessionCheck', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const ended = Object.assign(new Error('Request error: Your session has expired'), { statusCode: 401, body: 'Your session has expired' });
  const isSessionError = (err: unknown) => (err as { statusCode?: number }).statusCode === 401;

  it('asks the server every 15 s while active, and ends the session once the server says it is gone', async () => {
    let revoked = false;
    const verify = vi.fn(async () => {
      if (revoked) throw ended;
    });
    const onEnded = vi.fn();
    const check = new ServerSessionCheck({ active: () => true, verify, isSessionError, onEnded });
    check.start();
    await vi.advanceTimersByTimeAsync(14_999);
    expect(verify).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(verify).toHaveBeenCalledTimes(1);
    expect(onEnded).not.toHaveBeenCalled();
    revoked = true;
    await vi.advanceTimersByTimeAsync(15_000);
    expect(onEnded).toHaveBeenCalledWith(ended);
    check.stop();
  });

  it('asks nothing while inactive (hidden tab, signed out, offline), and ignores errors that are not session errors', async () => {
    let active = false;
    const verify = vi.fn(async () => {
      throw new Error('Failed to fetch');
    });
    const onEnded = vi.fn();
    const check = new ServerSessionCheck({ active: () => active, verify, isSessionError, onEnded });
    check.start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(verify).not.toHaveBeenCalled();
    active = true;
    await vi.advanceTimersByTimeAsync(15_000);
    expect(verify).toHaveBeenCalledTimes(1);
    expect(onEnded).not.toHaveBeenCalled();
    check.stop();
  });

  it('never sends a second request while one is in flight', async () => {
    let release: () => void = () => undefined;
    const verify = vi.fn(() => new Promise<void>((resolve) => (release = resolve)));
    const check = new ServerSessionCheck({ active: () => true, verify, isSessionError, onEnded: vi.fn() });
    check.start();
    await vi.advanceTimersByTimeAsync(45_000);
    expect(verify).toHaveBeenCalledTimes(1);
    release();
    await vi.advanceTimersByTimeAsync(15_000);
    expect(verify).toHaveBeenCalledTimes(2);
    check.stop();
  });
});
