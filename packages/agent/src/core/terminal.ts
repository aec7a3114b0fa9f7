import { StringDecoder } from 'node:string_decoder';

/**
 * Terminal sessions over the cloud link (issue 15 item 2; server side in
 * packages/server/src/features/cloud-link/link-protocol.ts): the server opens a session on a
 * target (a service's container, or the host), relays keystrokes and resizes, and
 * acknowledges output as the browser takes it. The device sends at most TERMINAL_WINDOW_CHARS
 * of output not yet acknowledged; beyond it the TTY is paused (the shell's writes block), so a
 * flood (`yes`) costs bounded memory everywhere. Output is decoded with a streaming UTF-8
 * decoder per session, so a multi-byte character split across reads is never broken.
 */

/** Output characters sent and not yet acknowledged before the TTY is paused. */
export const TERMINAL_WINDOW_CHARS = 256 * 1024;
/** Sessions open at once on this device (each is a process). */
export const MAX_TERMINAL_SESSIONS = 16;

export interface TtySize {
  cols: number;
  rows: number;
}

/** One open TTY: a `docker exec` with a TTY, a host pseudo-terminal, or a simulated shell. */
export interface Tty {
  write(data: string): void;
  resize(size: TtySize): void;
  pause(): void;
  resume(): void;
  /** Ends the TTY's process; onExit follows. */
  close(): void;
}

export interface TtyEvents {
  onData(chunk: Buffer | string): void;
  /** The TTY ended (its process exited, its container stopped); said once. */
  onExit(reason: string): void;
}

/** A refusal a user reads ('host shell disabled…', 'service main is not running'). */
export class TerminalRefused extends Error {}

/** Opens TTYs: `service` null is the host. Throws TerminalRefused with the reason users see. */
export interface TerminalHost {
  open(service: string | null, size: TtySize, events: TtyEvents): Promise<Tty>;
}

type ServerFrame =
  | { type: 'terminal-open'; session: string; service: string | null; cols: number; rows: number }
  | { type: 'terminal-input'; session: string; data: string }
  | { type: 'terminal-resize'; session: string; cols: number; rows: number }
  | { type: 'terminal-ack'; session: string; chars: number }
  | { type: 'terminal-close'; session: string };

interface Session {
  id: string;
  tty: Tty | null;
  decoder: StringDecoder;
  unacked: number;
  paused: boolean;
  closed: boolean;
  /** Input that came while the TTY was opening. */
  pendingInput: string[];
  pendingSize: TtySize | null;
}

const validSize = (cols: unknown, rows: unknown): boolean =>
  Number.isInteger(cols) && Number.isInteger(rows) && (cols as number) >= 1 && (rows as number) >= 1 && (cols as number) <= 1000 && (rows as number) <= 1000;

/** Parses a terminal frame from the server; null for anything else. */
export function parseTerminalFrame(text: string): ServerFrame | null {
  if (!text.includes('"terminal-')) return null;
  let m: Record<string, unknown>;
  try {
    m = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (typeof m !== 'object' || m === null || typeof m.session !== 'string') return null;
  switch (m.type) {
    case 'terminal-open':
      return (m.service === null || typeof m.service === 'string') && validSize(m.cols, m.rows) ? (m as ServerFrame) : null;
    case 'terminal-input':
      return typeof m.data === 'string' ? (m as ServerFrame) : null;
    case 'terminal-resize':
      return validSize(m.cols, m.rows) ? (m as ServerFrame) : null;
    case 'terminal-ack':
      return typeof m.chars === 'number' && Number.isFinite(m.chars) ? (m as ServerFrame) : null;
    case 'terminal-close':
      return m as ServerFrame;
    default:
      return null;
  }
}

/** A device's terminal sessions. `send` writes a frame on the current cloud link. */
export class TerminalSessions {
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly host: TerminalHost | undefined,
    private readonly send: (frame: string) => void,
    private readonly log: (message: string) => void,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  /** Handles a link frame if it is a terminal frame (true), else false. */
  handle(text: string): boolean {
    const frame = parseTerminalFrame(text);
    if (!frame) return /"type"\s*:\s*"terminal-/.test(text);
    const session = this.sessions.get(frame.session);
    switch (frame.type) {
      case 'terminal-open':
        if (!session) void this.open(frame.session, frame.service, { cols: frame.cols, rows: frame.rows });
        break;
      case 'terminal-input':
        if (!session || session.closed) break;
        if (session.tty) session.tty.write(frame.data);
        else session.pendingInput.push(frame.data);
        break;
      case 'terminal-resize':
        if (!session || session.closed) break;
        if (session.tty) session.tty.resize({ cols: frame.cols, rows: frame.rows });
        else session.pendingSize = { cols: frame.cols, rows: frame.rows };
        break;
      case 'terminal-ack':
        if (!session || session.closed) break;
        session.unacked = Math.max(0, session.unacked - frame.chars);
        if (session.paused && session.unacked < TERMINAL_WINDOW_CHARS) {
          session.paused = false;
          session.tty?.resume();
        }
        break;
      case 'terminal-close':
        if (session) this.close(session, null);
        break;
    }
    return true;
  }

  private async open(id: string, service: string | null, size: TtySize): Promise<void> {
    const session: Session = { id, tty: null, decoder: new StringDecoder('utf8'), unacked: 0, paused: false, closed: false, pendingInput: [], pendingSize: null };
    if (this.sessions.size >= MAX_TERMINAL_SESSIONS) {
      return this.frame({ type: 'terminal-exit', session: id, reason: `at most ${MAX_TERMINAL_SESSIONS} terminal sessions at once` });
    }
    this.sessions.set(id, session);
    this.frame({ type: 'terminal-status', session: id, state: 'spawning' });
    if (!this.host) return this.close(session, 'this device offers no terminal');
    let tty: Tty;
    try {
      tty = await this.host.open(service, size, {
        onData: (chunk) => this.output(session, chunk),
        onExit: (reason) => this.close(session, reason),
      });
    } catch (err) {
      const reason = err instanceof TerminalRefused ? err.message : `the terminal could not start: ${(err as Error).message}`;
      this.log(`terminal ${service === null ? 'host' : `service ${service}`}: ${reason}`);
      return this.close(session, reason);
    }
    if (session.closed) return tty.close();
    session.tty = tty;
    this.log(`terminal opened on ${service === null ? 'the host' : `service ${service}`}`);
    this.frame({ type: 'terminal-status', session: id, state: 'connect' });
    if (session.pendingSize) tty.resize(session.pendingSize);
    for (const data of session.pendingInput.splice(0)) tty.write(data);
  }

  private output(session: Session, chunk: Buffer | string): void {
    if (session.closed) return;
    const text = typeof chunk === 'string' ? chunk : session.decoder.write(chunk);
    if (text.length === 0) return;
    this.frame({ type: 'terminal-output', session: session.id, data: text });
    session.unacked += text.length;
    if (!session.paused && session.unacked >= TERMINAL_WINDOW_CHARS) {
      session.paused = true;
      session.tty?.pause();
    }
  }

  /** Ends a session: the TTY closes; `reason` null when the server asked (it needs no answer). */
  private close(session: Session, reason: string | null): void {
    if (session.closed) return;
    session.closed = true;
    this.sessions.delete(session.id);
    if (reason !== null) {
      const rest = session.decoder.end();
      if (rest) this.frame({ type: 'terminal-output', session: session.id, data: rest });
      this.frame({ type: 'terminal-exit', session: session.id, reason });
    }
    session.tty?.close();
  }

  /** The link dropped (or the agent stops): every TTY closes. */
  closeAll(): void {
    for (const session of [...this.sessions.values()]) this.close(session, null);
  }

  private frame(f: Record<string, unknown>): void {
    this.send(JSON.stringify(f));
  }
}
