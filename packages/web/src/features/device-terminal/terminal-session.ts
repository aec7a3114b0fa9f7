import { TERMINAL_RECONNECT, type TerminalServerFrame } from '@flotilla/model';

/**
 * One terminal tab's state machine (spec 2 §4 "Terminal session"): connecting, connected,
 * failed; on a disconnect up to TERMINAL_RECONNECT.attempts reconnections
 * TERMINAL_RECONNECT.delayMs apart, then failed ('reconnect failed'); 'unauthorized' means
 * failed with the server's message. Pure: the connection (terminal-connection.ts) feeds it
 * events and does what `reconnectDelay` says; unit-tested beside this file.
 */

export type TerminalStatus = 'connecting' | 'connected' | 'failed';

/**
 * What the tab says (keys of the terminal.* bundle, spec 2 §4 messages), or the server's own
 * words for 'unauthorized'.
 */
export type TerminalNotice =
  | { kind: 'connecting' }
  | { kind: 'spawning' }
  | { kind: 'connected' }
  | { kind: 'reconnecting'; attempt: number; of: number }
  | { kind: 'reconnected' }
  | { kind: 'ssh_disconnected'; reason: string | null }
  | { kind: 'disconnected' }
  | { kind: 'reconnect_failed' }
  | { kind: 'unauthorized'; message: string }
  | { kind: 'closed' };

export interface TerminalSessionState {
  status: TerminalStatus;
  notice: TerminalNotice;
  /** Reconnection attempts made since the session was last ready (0 on the first connection). */
  attempt: number;
  /** Whether the TTY was ever ready (a reconnection that succeeds says 'reconnected'). */
  everReady: boolean;
  /** The TTY said 'ssh disconnect' on the current socket (its close then says 'SSH session disconnected'). */
  sshDisconnected: boolean;
  /** The user closed the tab: nothing reconnects. */
  closedByUser: boolean;
}

export type TerminalSessionEvent =
  /** A frame from the server on the current socket. */
  | { type: 'frame'; frame: TerminalServerFrame }
  /** The current socket closed (or failed to open). */
  | { type: 'socket closed' }
  /** The reconnect delay passed: a new socket is opening. */
  | { type: 'reconnect' }
  /** The user closed the session. */
  | { type: 'close' };

export function initialSessionState(): TerminalSessionState {
  return { status: 'connecting', notice: { kind: 'connecting' }, attempt: 0, everReady: false, sshDisconnected: false, closedByUser: false };
}

/** The reconnect policy: the delay before attempt `attempt + 1`, or null when the attempts are used up. */
export function reconnectDelay(attemptsMade: number, policy: { attempts: number; delayMs: number } = TERMINAL_RECONNECT): number | null {
  return attemptsMade < policy.attempts ? policy.delayMs : null;
}

export function sessionReducer(state: TerminalSessionState, event: TerminalSessionEvent, policy: { attempts: number; delayMs: number } = TERMINAL_RECONNECT): TerminalSessionState {
  if (state.closedByUser) return state;
  switch (event.type) {
    case 'close':
      return { ...state, status: 'failed', notice: { kind: 'closed' }, closedByUser: true };
    case 'reconnect':
      if (state.status === 'failed') return state;
      return { ...state, status: 'connecting', sshDisconnected: false, attempt: state.attempt + 1, notice: { kind: 'reconnecting', attempt: state.attempt + 1, of: policy.attempts } };
    case 'socket closed': {
      if (state.status === 'failed') return state;
      // What ended it: the TTY ('SSH session disconnected'), or the socket itself ('disconnected').
      // A failed reconnection attempt keeps saying which attempt it was until the next one.
      const ended: TerminalNotice = state.attempt > 0 || state.sshDisconnected ? state.notice : { kind: 'disconnected' };
      if (reconnectDelay(state.attempt, policy) === null) return { ...state, status: 'failed', notice: { kind: 'reconnect_failed' } };
      // Still connecting: the reconnect timer turns it into the next attempt.
      return { ...state, status: 'connecting', notice: ended };
    }
    case 'frame':
      return onFrame(state, event.frame);
  }
}

function onFrame(state: TerminalSessionState, frame: TerminalServerFrame): TerminalSessionState {
  if (state.status === 'failed') return state;
  switch (frame.event) {
    case 'unauthorized':
      return { ...state, status: 'failed', notice: { kind: 'unauthorized', message: frame.message } };
    case 'ssh spawning':
      return state.attempt > 0 ? state : { ...state, notice: { kind: 'spawning' } };
    case 'ready': {
      const reconnected = state.everReady || state.attempt > 0;
      return { ...state, status: 'connected', attempt: 0, everReady: true, sshDisconnected: false, notice: reconnected ? { kind: 'reconnected' } : { kind: 'connected' } };
    }
    case 'ssh disconnect':
      // During a reconnection attempt the notice stays 'reconnecting (attempt n of 5)'.
      if (state.attempt > 0) return { ...state, status: 'connecting', sshDisconnected: true };
      return { ...state, status: 'connecting', sshDisconnected: true, notice: { kind: 'ssh_disconnected', reason: frame.reason || null } };
    default:
      return state;
  }
}

/** Spec 2 §4: a tab that is not the active one and received output since it was last looked at. */
export function hasUnseenActivity(unseen: ReadonlySet<string>, sessionId: string, activeId: string | null): boolean {
  return sessionId !== activeId && unseen.has(sessionId);
}
