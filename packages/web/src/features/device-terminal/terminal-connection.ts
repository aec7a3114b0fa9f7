import { isValidTerminalSize, TERMINAL_PATH, TERMINAL_RECONNECT, type TerminalClientFrame, type TerminalServerFrame, type TerminalTarget } from '@flotilla/model';
import { initialSessionState, reconnectDelay, sessionReducer, type TerminalSessionEvent, type TerminalSessionState } from './terminal-session';

/** The part of the browser's WebSocket a connection uses (a fake stands in for it in unit specs). */
export interface TerminalSocket {
  readonly readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export interface TerminalConnectionDeps {
  openSocket: (url: string) => TerminalSocket;
  /** The session token (balena-sdk `auth.getToken()`); read again for every attempt. */
  getToken: () => Promise<string>;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  policy?: { attempts: number; delayMs: number };
}

export interface TerminalConnectionOptions {
  uuid: string;
  target: TerminalTarget;
  cols: number;
  rows: number;
}

const OPEN = 1;
/** Output kept for a view that has not attached yet (the xterm chunk is still loading). */
const PENDING_MAX_CHARS = 256 * 1024;

/** ws:// or wss:// on the page's own host (spec 2 §7 terminal; the server checks Origin). */
export function terminalSocketUrl(location: { protocol: string; host: string }): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${TERMINAL_PATH}`;
}

/** Parses a server frame; undefined for anything that is not one. */
export function parseServerFrame(data: unknown): TerminalServerFrame | undefined {
  if (typeof data !== 'string') return undefined;
  try {
    const frame = JSON.parse(data) as unknown;
    if (frame && typeof frame === 'object' && typeof (frame as { event?: unknown }).event === 'string') return frame as TerminalServerFrame;
  } catch {
    // not JSON: ignored
  }
  return undefined;
}

/**
 * One terminal session: a WebSocket at TERMINAL_PATH speaking the browser protocol of
 * @flotilla/model (first frame `authentication`), its reconnections (spec 2 §4, §9
 * TERMINAL_RECONNECT) and the TTY's output. Output that arrives before a view is attached
 * is kept and written when it attaches.
 */
export class TerminalConnection {
  state: TerminalSessionState = initialSessionState();
  private socket: TerminalSocket | undefined;
  private timer: unknown;
  private cols: number;
  private rows: number;
  private sink: ((text: string) => void) | undefined;
  private pending: string[] = [];
  private pendingChars = 0;
  private readonly stateListeners = new Set<(state: TerminalSessionState) => void>();
  private readonly dataListeners = new Set<() => void>();
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;
  private readonly policy: { attempts: number; delayMs: number };

  constructor(
    private readonly options: TerminalConnectionOptions,
    private readonly url: string,
    private readonly deps: TerminalConnectionDeps,
  ) {
    this.cols = options.cols;
    this.rows = options.rows;
    this.setTimer = deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = deps.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
    this.policy = deps.policy ?? TERMINAL_RECONNECT;
  }

  get target(): TerminalTarget {
    return this.options.target;
  }

  /** Opens the first socket. */
  start(): void {
    void this.open();
  }

  /** Keystrokes (xterm's onData) once the TTY is ready; dropped otherwise. */
  send(data: string): void {
    if (this.state.status === 'connected') this.write({ event: 'data', data });
  }

  /** The view's size (addon-fit); sent now when connected, and in every later `authentication`. */
  resize(cols: number, rows: number): void {
    if (!isValidTerminalSize(cols, rows) || (cols === this.cols && rows === this.rows)) return;
    this.cols = cols;
    this.rows = rows;
    if (this.state.status === 'connected') this.write({ event: 'resize', cols, rows });
  }

  get size(): { cols: number; rows: number } {
    return { cols: this.cols, rows: this.rows };
  }

  /** The user closed the tab (or the device changed): nothing reconnects. */
  close(): void {
    this.dispatch({ type: 'close' });
    if (this.timer !== undefined) this.clearTimer(this.timer);
    this.timer = undefined;
    const socket = this.socket;
    this.socket = undefined;
    if (socket) this.detachSocket(socket);
  }

  /** Where the TTY's output goes (the xterm view); earlier output is flushed into it first. */
  attach(sink: (text: string) => void): () => void {
    this.sink = sink;
    for (const text of this.pending.splice(0)) sink(text);
    this.pendingChars = 0;
    return () => {
      if (this.sink === sink) this.sink = undefined;
    };
  }

  onState(listener: (state: TerminalSessionState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /** Called on each output chunk (the panel flags unseen activity on inactive tabs). */
  onData(listener: () => void): () => void {
    this.dataListeners.add(listener);
    return () => this.dataListeners.delete(listener);
  }

  private dispatch(event: TerminalSessionEvent): void {
    const next = sessionReducer(this.state, event, this.policy);
    if (next === this.state) return;
    this.state = next;
    for (const listener of this.stateListeners) listener(next);
  }

  private async open(): Promise<void> {
    let token: string;
    try {
      token = await this.deps.getToken();
    } catch {
      token = '';
    }
    if (this.state.closedByUser || this.state.status === 'failed') return;
    const socket = this.deps.openSocket(this.url);
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      this.write({ event: 'authentication', token, uuid: this.options.uuid, target: this.options.target, cols: this.cols, rows: this.rows });
    };
    socket.onmessage = (ev) => {
      if (this.socket !== socket) return;
      const frame = parseServerFrame(ev.data);
      if (!frame) return;
      if (frame.event === 'data') {
        if (typeof frame.data === 'string') this.output(frame.data);
        return;
      }
      const wasReady = this.state.status === 'connected';
      this.dispatch({ type: 'frame', frame });
      // The TTY may have been resized while it was not ready: say the current size once ready.
      if (frame.event === 'ready' && !wasReady) this.write({ event: 'resize', cols: this.cols, rows: this.rows });
    };
    socket.onerror = () => undefined;
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.dispatch({ type: 'socket closed' });
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    if (this.state.status === 'failed' || this.state.closedByUser) return;
    const delay = reconnectDelay(this.state.attempt, this.policy);
    if (delay === null) return;
    this.timer = this.setTimer(() => {
      this.timer = undefined;
      this.dispatch({ type: 'reconnect' });
      void this.open();
    }, delay);
  }

  private output(text: string): void {
    if (this.sink) this.sink(text);
    else {
      // Bounded: a view that never attaches keeps the newest output only.
      this.pending.push(text);
      this.pendingChars += text.length;
      while (this.pendingChars > PENDING_MAX_CHARS && this.pending.length > 1) this.pendingChars -= this.pending.shift()!.length;
    }
    for (const listener of this.dataListeners) listener();
  }

  private write(frame: TerminalClientFrame): void {
    if (this.socket && this.socket.readyState === OPEN) this.socket.send(JSON.stringify(frame));
  }

  private detachSocket(socket: TerminalSocket): void {
    socket.onopen = null;
    socket.onmessage = null;
    socket.onclose = null;
    socket.onerror = () => undefined;
    try {
      socket.close(1000, 'closed');
    } catch {
      // already closed
    }
  }
}
