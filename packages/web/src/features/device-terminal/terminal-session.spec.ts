import { TERMINAL_RECONNECT } from '@flotilla/model';
import { describe, expect, it } from 'vitest';
import { hasUnseenActivity, initialSessionState, reconnectDelay, sessionReducer, type TerminalSessionEvent, type TerminalSessionState } from './terminal-session';

const run = (events: TerminalSessionEvent[], from: TerminalSessionState = initialSessionState()) => events.reduce((s, e) => sessionReducer(s, e), from);
const frame = (f: TerminalSessionEvent & { type: 'frame' }) => f;
const ready: TerminalSessionEvent = { type: 'frame', frame: { event: 'ready' } };
const closed: TerminalSessionEvent = { type: 'socket closed' };
const reconnect: TerminalSessionEvent = { type: 'reconnect' };

describe('reconnectDelay (spec 2 §4, §9: 5 attempts 2000 ms apart)', () => {
  it('waits 2000 ms before each of 5 attempts, then gives up', () => {
    expect(TERMINAL_RECONNECT).toEqual({ attempts: 5, delayMs: 2000 });
    for (let made = 0; made < 5; made += 1) expect(reconnectDelay(made)).toBe(2000);
    expect(reconnectDelay(5)).toBeNull();
  });
});

describe('sessionReducer', () => {
  it('starts connecting and is connected once the TTY is ready', () => {
    expect(initialSessionState()).toMatchObject({ status: 'connecting', notice: { kind: 'connecting' } });
    const spawning = run([frame({ type: 'frame', frame: { event: 'authenticated' } }), frame({ type: 'frame', frame: { event: 'ssh spawning' } })]);
    expect(spawning).toMatchObject({ status: 'connecting', notice: { kind: 'spawning' } });
    expect(run([ready])).toMatchObject({ status: 'connected', notice: { kind: 'connected' }, everReady: true });
  });

  it("unauthorized means failed with the server's message, and nothing reconnects", () => {
    const s = run([frame({ type: 'frame', frame: { event: 'unauthorized', message: "You don't have the required permission for this action" } }), closed]);
    expect(s).toMatchObject({ status: 'failed', notice: { kind: 'unauthorized', message: "You don't have the required permission for this action" } });
    expect(sessionReducer(s, reconnect)).toBe(s);
  });

  it("'ssh disconnect' says 'SSH session disconnected', then reconnects and says reconnected", () => {
    const dropped = run([ready, frame({ type: 'frame', frame: { event: 'ssh disconnect', reason: 'device offline' } })]);
    expect(dropped).toMatchObject({ status: 'connecting', notice: { kind: 'ssh_disconnected', reason: 'device offline' } });
    const afterClose = run([closed], dropped);
    expect(afterClose.notice).toEqual({ kind: 'ssh_disconnected', reason: 'device offline' });
    const retrying = run([reconnect], afterClose);
    expect(retrying).toMatchObject({ status: 'connecting', attempt: 1, notice: { kind: 'reconnecting', attempt: 1, of: 5 } });
    expect(run([ready], retrying)).toMatchObject({ status: 'connected', attempt: 0, notice: { kind: 'reconnected' } });
  });

  it("a socket that drops without 'ssh disconnect' says 'disconnected'", () => {
    expect(run([ready, closed])).toMatchObject({ status: 'connecting', notice: { kind: 'disconnected' } });
  });

  it("fails with 'reconnect failed' after 5 attempts that never get ready", () => {
    let s = run([ready, frame({ type: 'frame', frame: { event: 'ssh disconnect', reason: '' } }), closed]);
    for (let i = 1; i <= 5; i += 1) {
      s = run([reconnect], s);
      expect(s.notice).toEqual({ kind: 'reconnecting', attempt: i, of: 5 });
      // The server answers each attempt: the device is offline. The notice keeps the attempt.
      s = run([frame({ type: 'frame', frame: { event: 'authenticated' } }), frame({ type: 'frame', frame: { event: 'ssh disconnect', reason: 'device is offline' } })], s);
      expect(s.notice).toEqual({ kind: 'reconnecting', attempt: i, of: 5 });
      s = run([closed], s);
      if (i < 5) expect(s.notice).toEqual({ kind: 'reconnecting', attempt: i, of: 5 });
    }
    expect(s).toMatchObject({ status: 'failed', notice: { kind: 'reconnect_failed' } });
    expect(run([reconnect, ready], s)).toBe(s);
  });

  it('a successful reconnection gives the next drop all 5 attempts again', () => {
    let s = run([ready, closed, reconnect, closed, reconnect, closed, reconnect, ready]);
    expect(s).toMatchObject({ status: 'connected', attempt: 0 });
    s = run([closed, reconnect, closed, reconnect, closed, reconnect, closed, reconnect, closed, reconnect], s);
    expect(s).toMatchObject({ status: 'connecting', attempt: 5 });
    expect(run([closed], s).notice).toEqual({ kind: 'reconnect_failed' });
  });

  it('closing by the user ends it for good', () => {
    const s = run([ready, { type: 'close' }]);
    expect(s).toMatchObject({ status: 'failed', closedByUser: true, notice: { kind: 'closed' } });
    expect(run([closed, reconnect, ready], s)).toBe(s);
  });
});

describe('hasUnseenActivity', () => {
  it('flags inactive tabs with output only', () => {
    const unseen = new Set(['a']);
    expect(hasUnseenActivity(unseen, 'a', 'b')).toBe(true);
    expect(hasUnseenActivity(unseen, 'a', 'a')).toBe(false);
    expect(hasUnseenActivity(unseen, 'b', 'a')).toBe(false);
  });
});
