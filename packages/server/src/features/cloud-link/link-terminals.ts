import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { Bus } from '../../infra/bus/bus.js';
import {
  terminalInChannel,
  terminalOutChannel,
  type TerminalDeviceFrame,
  type TerminalFromDevice,
  type TerminalLinkFrame,
  type TerminalOpenRequest,
  type TerminalToDevice,
} from './link-protocol.js';

/** A link's side of a terminal session: the device holds the TTY, a browser-side process the WebSocket. */
interface HeldSession {
  session: string;
  deviceId: number;
  socket: WebSocket;
  unsubscribe: (() => Promise<void>) | null;
  closed: boolean;
}

/** Sessions a device may have open at once over its link (each is a process on the device). */
export const MAX_SESSIONS_PER_LINK = 16;

/**
 * The terminal sessions relayed by the links this process holds. The link's socket cannot
 * cross processes, so the process holding it bridges the device's frames and the session's
 * two bus channels (terminalInChannel from the browser's process, terminalOutChannel to it).
 */
export class LinkTerminals {
  private readonly sessions = new Map<string, HeldSession>();

  constructor(
    private readonly bus: Bus,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** A `terminal-open` on the device's action channel reached the process holding its live link. */
  async open(deviceId: number, socket: WebSocket, request: TerminalOpenRequest): Promise<void> {
    if (this.sessions.has(request.session)) return;
    const open = [...this.sessions.values()].filter((s) => s.deviceId === deviceId).length;
    if (open >= MAX_SESSIONS_PER_LINK) {
      await this.toBrowser(request.session, { kind: 'exit', reason: `the device has ${MAX_SESSIONS_PER_LINK} terminal sessions open already` });
      return;
    }
    const held: HeldSession = { session: request.session, deviceId, socket, unsubscribe: null, closed: false };
    this.sessions.set(request.session, held);
    // Subscribed before the device hears of the session, so no keystroke can come before.
    held.unsubscribe = await this.bus.subscribe(terminalInChannel(request.session), (m) => this.fromBrowser(held, m as TerminalToDevice));
    if (held.closed) return void (await this.drop(held));
    this.send(held, { type: 'terminal-open', session: request.session, service: request.service, cols: request.cols, rows: request.rows });
  }

  private fromBrowser(held: HeldSession, m: TerminalToDevice): void {
    if (held.closed || typeof m !== 'object' || m === null) return;
    const session = held.session;
    switch (m.kind) {
      case 'input':
        if (typeof m.data === 'string') this.send(held, { type: 'terminal-input', session, data: m.data });
        return;
      case 'resize':
        this.send(held, { type: 'terminal-resize', session, cols: m.cols, rows: m.rows });
        return;
      case 'ack':
        if (Number.isFinite(m.chars) && m.chars > 0) this.send(held, { type: 'terminal-ack', session, chars: m.chars });
        return;
      case 'close':
        this.send(held, { type: 'terminal-close', session });
        void this.drop(held);
        return;
    }
  }

  /** A terminal frame from a device: relayed to the session's browser-side process. */
  fromDevice(deviceId: number, frame: TerminalDeviceFrame): void {
    const held = this.sessions.get(frame.session);
    if (!held || held.deviceId !== deviceId || held.closed) return;
    switch (frame.type) {
      case 'terminal-status':
        void this.toBrowser(held.session, { kind: 'status', state: frame.state });
        return;
      case 'terminal-output':
        void this.toBrowser(held.session, { kind: 'output', data: frame.data });
        return;
      case 'terminal-exit':
        void this.toBrowser(held.session, { kind: 'exit', reason: frame.reason.slice(0, 500) });
        void this.drop(held);
        return;
    }
  }

  /** The link closed: every session it carried ends. */
  async linkClosed(socket: WebSocket): Promise<void> {
    const gone = [...this.sessions.values()].filter((s) => s.socket === socket);
    await Promise.all(
      gone.map(async (held) => {
        await this.toBrowser(held.session, { kind: 'exit', reason: 'the device disconnected' });
        await this.drop(held);
      }),
    );
  }

  private send(held: HeldSession, frame: TerminalLinkFrame): void {
    if (held.socket.readyState === held.socket.OPEN) held.socket.send(JSON.stringify(frame));
  }

  private async toBrowser(session: string, m: TerminalFromDevice): Promise<void> {
    await this.bus.publish(terminalOutChannel(session), m).catch((err: unknown) => this.log.error({ err }, 'terminal: could not relay to the browser'));
  }

  private async drop(held: HeldSession): Promise<void> {
    held.closed = true;
    if (this.sessions.get(held.session) === held) this.sessions.delete(held.session);
    const off = held.unsubscribe;
    held.unsubscribe = null;
    await off?.().catch(() => undefined);
  }
}
