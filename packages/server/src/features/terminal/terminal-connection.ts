import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import { TERMINAL_LIMITS, isValidTerminalSize, parseTerminalTarget, type TerminalServerFrame } from '@flotilla/model';
import type { Authenticator } from '../../infra/auth/authenticate.js';
import { looksLikeJwt } from '../../infra/auth/jwt.js';
import type { Bus } from '../../infra/bus/bus.js';
import type { Db } from '../../infra/db/db.js';
import type { Actor } from '../../infra/http/actor.js';
import { odataRead } from '../../infra/odata/index.js';
import { sendToLinkHolder, terminalInChannel, terminalOutChannel, type TerminalFromDevice, type TerminalOpenRequest, type TerminalToDevice } from '../cloud-link/index.js';
import { deviceOperationAllowed } from '../devices/index.js';
import { endSession, insertSession, usernameOf } from './terminal.repository.js';

export interface TerminalDeps {
  db: Db;
  bus: Bus;
  authenticator: Authenticator;
  log: FastifyBaseLogger;
  /** This process's id in the audit trail (its heartbeat keeps its sessions' rows alive). */
  serverInstance: string;
  /** How long the device has to start the TTY before the session ends 'device is offline' (ms). */
  openTimeoutMs: number;
  authTimeoutMs: number;
}

/** Output characters acknowledged to the device at once (fewer ride along with the next). */
const ACK_BATCH_CHARS = 16 * 1024;
const DEFAULT_SIZE = { cols: 80, rows: 24 };
/** A balena uuid is 32 (or 62) hex digits; anything else names no device. */
const UUID = /^[0-9a-f]{1,64}$/i;

type State = 'authenticating' | 'authorizing' | 'connecting' | 'ready' | 'closed';

/**
 * One browser terminal WebSocket (spec 2 §4 terminal session; protocol in @flotilla/model
 * live-operations.ts): authenticates the first frame, checks the right, asks the process
 * holding the device's cloud link to open the TTY (bus), then relays keystrokes one way and
 * output the other, acknowledging output as the browser's socket drains it (flow control).
 */
export class TerminalConnection {
  private state: State = 'authenticating';
  private readonly session = randomUUID();
  private deviceId: number | null = null;
  private audited = false;
  private unsubscribe: (() => Promise<void>) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private size = DEFAULT_SIZE;
  /** The size the device was last told (the open request, then resizes). */
  private sentSize = DEFAULT_SIZE;
  /** Output characters sent to the browser's socket and not yet written out / acknowledged. */
  private inFlight = 0;
  private toAck = 0;

  constructor(
    private readonly socket: WebSocket,
    private readonly deps: TerminalDeps,
    private readonly onEnd: (c: TerminalConnection) => void,
  ) {
    this.timer = setTimeout(() => {
      this.send({ event: 'unauthorized', message: 'No authentication within the time allowed' });
      void this.end('authentication timed out', 1008);
    }, deps.authTimeoutMs);
    socket.on('message', (data, isBinary) => this.onMessage(data as Buffer, isBinary));
    socket.on('close', () => void this.end('the browser closed the terminal'));
  }

  private onMessage(data: Buffer, isBinary: boolean): void {
    if (this.state === 'closed') return;
    if (data.length > TERMINAL_LIMITS.maxFrameBytes) {
      void this.end('a frame was too large', 1009, 'frame too large');
      return;
    }
    if (isBinary) return this.send({ event: 'error', message: 'Frames are JSON text' });
    let frame: unknown;
    try {
      frame = JSON.parse(data.toString('utf8'));
    } catch {
      return this.send({ event: 'error', message: 'Malformed JSON' });
    }
    if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) return this.send({ event: 'error', message: 'A frame is a JSON object' });
    const f = frame as Record<string, unknown>;
    switch (f.event) {
      case 'authentication':
        if (this.state !== 'authenticating') return this.send({ event: 'error', message: 'Already authenticated' });
        this.state = 'authorizing';
        this.authenticate(f).catch((err: unknown) => {
          this.deps.log.error({ err }, 'terminal: could not open a session');
          this.send({ event: 'ssh disconnect', reason: 'server error' });
          void this.end('server error', 1011);
        });
        return;
      case 'data':
        if (typeof f.data !== 'string') return this.send({ event: 'error', message: 'data must be a string' });
        if (this.state !== 'ready') return this.send({ event: 'error', message: 'The terminal is not ready' });
        this.toDevice({ kind: 'input', data: f.data });
        return;
      case 'resize':
        if (!isValidTerminalSize(f.cols, f.rows)) {
          return this.send({ event: 'error', message: `A terminal is 1 to ${TERMINAL_LIMITS.maxCols} columns and 1 to ${TERMINAL_LIMITS.maxRows} rows` });
        }
        this.size = { cols: f.cols as number, rows: f.rows as number };
        if (this.state === 'ready') this.resizeDevice();
        return;
      default:
        return this.send({ event: 'error', message: 'Unknown event' });
    }
  }

  private async authenticate(f: Record<string, unknown>): Promise<void> {
    const target = parseTerminalTarget(f.target);
    if (typeof f.token !== 'string' || f.token.length === 0 || f.token.length > 8192) return this.refuse('A token is required');
    if (typeof f.uuid !== 'string' || !UUID.test(f.uuid)) return this.refuse('No such device');
    if (!target) return this.refuse("target must be 'host' or 'service:<name>'");
    if (f.cols !== undefined || f.rows !== undefined) {
      if (isValidTerminalSize(f.cols, f.rows)) this.size = { cols: f.cols as number, rows: f.rows as number };
      else this.send({ event: 'error', message: `A terminal is 1 to ${TERMINAL_LIMITS.maxCols} columns and 1 to ${TERMINAL_LIMITS.maxRows} rows` });
    }
    let actor: Actor;
    try {
      actor = await (looksLikeJwt(f.token) ? this.deps.authenticator.fromJwt(f.token) : this.deps.authenticator.fromApiKey(f.token));
    } catch {
      return this.refuse('Invalid or expired token');
    }
    if (this.state === 'closed') return;
    if (actor.kind !== 'user' || actor.claims?.twoFactorRequired === true) return this.refuse('Only a logged-in user may open a terminal');
    const [device] = await odataRead<{ id: number; is_online: boolean }>(
      this.deps.db,
      { actorId: actor.actorId, permissions: actor.permissions },
      `/device?$select=id,is_online&$filter=uuid eq '${f.uuid.toLowerCase()}'`,
    );
    if (!device) return this.refuse('No such device');
    const operation = target.service === null ? 'ssh-host' : 'ssh';
    if (!(await deviceOperationAllowed(this.deps.db, actor, device.id, operation))) {
      return this.refuse(
        operation === 'ssh-host'
          ? 'You need the right resin.device.ssh-host to open a terminal on the host of this device'
          : 'You need the right resin.device.ssh to open a terminal in the services of this device',
      );
    }
    if (this.isClosed()) return;
    this.clearTimer();
    this.send({ event: 'authenticated' });
    if (!device.is_online) {
      this.send({ event: 'ssh disconnect', reason: 'device is offline' });
      return void this.end('device is offline', 1000);
    }
    this.state = 'connecting';
    this.deviceId = device.id;
    this.send({ event: 'ssh connecting' });
    const username = (actor.userId !== undefined ? await usernameOf(this.deps.db, actor.userId) : undefined) ?? `actor ${actor.actorId}`;
    await insertSession(this.deps.db, {
      session: this.session,
      deviceId: device.id,
      userId: actor.userId ?? null,
      username,
      apiKeyId: actor.apiKeyId ?? null,
      target: f.target as string,
      serverInstance: this.deps.serverInstance,
    });
    this.audited = true;
    if (!this.opening()) return void (await endSession(this.deps.db, this.session, 'the browser closed the terminal'));
    this.unsubscribe = await this.deps.bus.subscribe(terminalOutChannel(this.session), (m) => this.fromDevice(m as TerminalFromDevice));
    if (!this.opening()) return this.release();
    // Nobody answers when no process holds the device's link (it went offline meanwhile).
    this.timer = setTimeout(() => {
      if (this.state !== 'connecting') return;
      this.send({ event: 'ssh disconnect', reason: 'device is offline' });
      void this.end('device is offline', 1000);
    }, this.deps.openTimeoutMs);
    this.sentSize = this.size;
    const open: TerminalOpenRequest = { type: 'terminal-open', session: this.session, service: target.service, ...this.size };
    // While no process holds the link (a node died, the device is reconnecting), the request is
    // sent again until one does or the open times out above.
    await sendToLinkHolder(this.deps.bus, device.id, open, this.deps.openTimeoutMs, () => this.state === 'connecting');
  }

  private resizeDevice(): void {
    this.sentSize = this.size;
    this.toDevice({ kind: 'resize', ...this.size });
  }

  private fromDevice(m: TerminalFromDevice): void {
    if (typeof m !== 'object' || m === null) return;
    if (this.state === 'closed') {
      // The browser left while the device was opening: the link holder may have subscribed
      // after our close went by, so the TTY that just opened is closed again.
      if (m.kind === 'status' && m.state === 'connect') this.toDevice({ kind: 'close' });
      return;
    }
    switch (m.kind) {
      case 'status':
        this.clearTimer();
        if (m.state === 'spawning') this.send({ event: 'ssh spawning' });
        else if (this.state === 'connecting') {
          this.state = 'ready';
          this.send({ event: 'ssh connect' });
          this.send({ event: 'ready' });
          // A resize that came while the device was opening.
          if (this.size.cols !== this.sentSize.cols || this.size.rows !== this.sentSize.rows) this.resizeDevice();
        }
        return;
      case 'output':
        if (typeof m.data === 'string') this.output(m.data);
        return;
      case 'exit':
        this.send({ event: 'ssh disconnect', reason: typeof m.reason === 'string' ? m.reason : 'the terminal ended' });
        void this.end(typeof m.reason === 'string' ? m.reason : 'the terminal ended', 1000, undefined, false);
        return;
    }
  }

  /** Output to the browser; acknowledged to the device once the socket has written it out. */
  private output(data: string): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    const chars = data.length;
    this.inFlight += chars;
    this.socket.send(JSON.stringify({ event: 'data', data } satisfies TerminalServerFrame), (err) => {
      this.inFlight -= chars;
      if (err || this.state === 'closed') return;
      this.toAck += chars;
      if (this.toAck >= ACK_BATCH_CHARS || this.inFlight === 0) {
        const ack = this.toAck;
        this.toAck = 0;
        this.toDevice({ kind: 'ack', chars: ack });
      }
    });
  }

  private toDevice(m: TerminalToDevice): void {
    this.deps.bus.publish(terminalInChannel(this.session), m).catch((err: unknown) => this.deps.log.error({ err }, 'terminal: could not relay to the device'));
  }

  /** Re-read after an await (the socket may have closed meanwhile). */
  private opening(): boolean {
    return this.state === 'connecting';
  }

  private isClosed(): boolean {
    return this.state === 'closed';
  }

  private refuse(message: string): void {
    this.send({ event: 'unauthorized', message });
    void this.end('unauthorized', 1008);
  }

  private send(frame: TerminalServerFrame): void {
    if (this.state !== 'closed' && this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(frame));
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * Ends the session once: the device's TTY is closed (unless the device ended it), the
   * audit row gets its end, the browser's socket closes.
   */
  async end(reason: string, code = 1000, closeReason?: string, closeDevice = true): Promise<void> {
    if (this.state === 'closed') return;
    const wasOpen = this.deviceId !== null;
    const wasOpening = this.state === 'connecting';
    this.state = 'closed';
    this.clearTimer();
    if (wasOpen && closeDevice) this.toDevice({ kind: 'close' });
    if (this.socket.readyState === this.socket.OPEN || this.socket.readyState === this.socket.CONNECTING) this.socket.close(code, closeReason);
    this.onEnd(this);
    if (wasOpening && closeDevice) {
      // Keep hearing the device until it could have answered the open (see fromDevice).
      setTimeout(() => void this.release(), this.deps.openTimeoutMs).unref();
    } else await this.release();
    if (this.audited) await endSession(this.deps.db, this.session, reason).catch((err: unknown) => this.deps.log.error({ err }, 'terminal: could not record the end'));
  }

  private async release(): Promise<void> {
    const off = this.unsubscribe;
    this.unsubscribe = null;
    await off?.().catch(() => undefined);
  }
}
