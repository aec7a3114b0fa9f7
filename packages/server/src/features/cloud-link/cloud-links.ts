import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { Bus } from '../../infra/bus/bus.js';
import type { Db } from '../../infra/db/db.js';
import type { DeviceStateChanged } from '../device-api/index.js';
import { devicesInFleets } from './cloud-link.repository.js';
import { markLinkClosed, markLinkOpened } from './link-connectivity.js';
import {
  actionChannel,
  isActionRequest,
  isLinkOpened,
  isResultFrame,
  isTerminalDeviceFrame,
  isTerminalOpenRequest,
  type ActionFrame,
  type ActionReply,
  type LinkOpened,
  type TargetChangedFrame,
  targetChangedSpreadMs,
} from './link-protocol.js';
import { LinkTerminals } from './link-terminals.js';

/** Close code sent to a link that a newer link of the same device replaced. */
export const LINK_REPLACED_CODE = 4001;

/** Kept small: a server holds thousands (bench (k): ≤ 20 KB of RSS per link, socket included). */
interface Link {
  id: string;
  deviceId: number;
  socket: WebSocket;
  /** Recorded as the device's current link (see link-connectivity.ts). */
  recorded: boolean;
  opening: Promise<void>;
  /** Relayed requests awaiting the device's result: request id → reply channel (created on the first). */
  pending: Map<string, string> | null;
  unsubscribe: (() => Promise<void>) | null;
  alive: boolean;
  replaced: boolean;
}

/**
 * The cloud links this process holds (one WebSocket per device). The sockets live here
 * because a socket cannot cross processes; everything else goes through the bus: each link
 * listens on its device's action channel, whichever process the HTTP action came to.
 */
export class CloudLinks {
  private readonly links = new Map<number, Link>();
  private readonly settling = new Set<Promise<unknown>>();
  private readonly pinger: NodeJS.Timeout;
  private readonly terminals: LinkTerminals;

  constructor(
    private readonly db: Db,
    private readonly bus: Bus,
    private readonly log: FastifyBaseLogger,
    pingIntervalMs = 30_000,
  ) {
    this.terminals = new LinkTerminals(bus, log);
    // Liveness (contract: WebSocket ping/pong): a link that did not answer the previous
    // ping is dead (half-open TCP); terminating it runs the normal close path.
    this.pinger = setInterval(() => this.pingAll(), pingIntervalMs);
    this.pinger.unref();
  }

  /** Number of links held by this process (tests, diagnostics). */
  get size(): number {
    return this.links.size;
  }

  open(deviceId: number, socket: WebSocket): void {
    const link: Link = { id: randomUUID(), deviceId, socket, pending: null, unsubscribe: null, alive: true, replaced: false, recorded: false, opening: Promise.resolve() };
    const previous = this.links.get(deviceId);
    if (previous) this.replace(previous);
    this.links.set(deviceId, link);

    socket.on('pong', () => {
      link.alive = true;
    });
    socket.on('message', (data, isBinary) => {
      if (!isBinary) this.onFrame(link, data.toString());
    });
    socket.on('close', () => this.track(this.onClose(link)));
    link.opening = this.track(this.start(link));
  }

  private async start(link: Link): Promise<void> {
    try {
      link.unsubscribe = await this.bus.subscribe(actionChannel(link.deviceId), (m) => {
        if (isLinkOpened(m)) {
          if (m.linkId !== link.id) this.replace(link);
        } else if (isTerminalOpenRequest(m)) {
          if (!link.replaced && link.socket.readyState === link.socket.OPEN) this.track(this.terminals.open(link.deviceId, link.socket, m));
        } else {
          this.onActionRequest(link, m);
        }
      });
      await this.bus.publish(actionChannel(link.deviceId), { type: 'link-opened', linkId: link.id } satisfies LinkOpened);
      if (link.replaced || link.socket.readyState !== link.socket.OPEN) return;
      await markLinkOpened(this.db, link.deviceId, link.id);
      link.recorded = true;
    } catch (err) {
      this.log.error({ err, deviceId: link.deviceId }, 'cloud link: could not open');
      link.socket.close(1011, 'server error');
    }
  }

  /**
   * A target-state change (the device API's `device-state:changed`, from any process): each
   * affected device whose link this process holds gets a `target-changed` frame, so it polls
   * now rather than at its next interval (up to 10 minutes away by default).
   */
  async notifyTargetChanged(change: DeviceStateChanged): Promise<number> {
    if (this.links.size === 0) return 0;
    const notify = new Set<number>();
    for (const id of change.deviceIds ?? []) if (this.links.has(id)) notify.add(id);
    if (change.applicationIds?.length) {
      const held = [...this.links.keys()].filter((id) => !notify.has(id));
      if (held.length) for (const id of await devicesInFleets(this.db, held, change.applicationIds)) notify.add(id);
    }
    if (notify.size === 0) return 0;
    const frame = JSON.stringify({ type: 'target-changed', withinMs: targetChangedSpreadMs(notify.size) } satisfies TargetChangedFrame);
    let sent = 0;
    for (const id of notify) {
      const link = this.links.get(id);
      if (!link || link.replaced || link.socket.readyState !== link.socket.OPEN) continue;
      link.socket.send(frame);
      sent++;
    }
    return sent;
  }

  private replace(link: Link): void {
    if (link.replaced) return;
    link.replaced = true;
    if (this.links.get(link.deviceId) === link) this.links.delete(link.deviceId);
    link.socket.close(LINK_REPLACED_CODE, 'replaced by a newer link');
  }

  private async onClose(link: Link): Promise<void> {
    await link.opening;
    if (this.links.get(link.deviceId) === link) this.links.delete(link.deviceId);
    await link.unsubscribe?.().catch(() => undefined);
    link.unsubscribe = null;
    await this.terminals.linkClosed(link.socket);
    for (const [requestId, replyTo] of link.pending ?? []) {
      await this.reply(replyTo, { requestId, status: 502, body: 'The device disconnected' });
    }
    link.pending = null;
    // Only the current link's close counts (markLinkClosed checks it in the database).
    if (link.recorded) {
      await markLinkClosed(this.db, link.deviceId, link.id).catch((err: unknown) =>
        this.log.error({ err, deviceId: link.deviceId }, 'cloud link: could not record the disconnect'),
      );
    }
  }

  private onActionRequest(link: Link, message: unknown): void {
    if (!isActionRequest(message)) return;
    if (link.replaced || link.socket.readyState !== link.socket.OPEN) {
      // Another process (or none) holds the live link; only the live one answers.
      return;
    }
    (link.pending ??= new Map()).set(message.requestId, message.replyTo);
    const frame: ActionFrame = { type: 'action', id: message.requestId, action: message.action, params: message.params };
    link.socket.send(JSON.stringify(frame));
  }

  private onFrame(link: Link, text: string): void {
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      return; // not ours to answer: the protocol has no error frame
    }
    if (isTerminalDeviceFrame(frame)) return this.terminals.fromDevice(link.deviceId, frame);
    if (!isResultFrame(frame)) return;
    const replyTo = link.pending?.get(frame.id);
    if (replyTo === undefined) return;
    link.pending!.delete(frame.id);
    this.track(this.reply(replyTo, { requestId: frame.id, status: frame.status, body: frame.body ?? null }));
  }

  private async reply(replyTo: string, reply: ActionReply): Promise<void> {
    await this.bus.publish(replyTo, reply).catch((err: unknown) => this.log.error({ err }, 'cloud link: could not relay a result'));
  }

  private pingAll(): void {
    for (const link of this.links.values()) {
      if (!link.alive) {
        link.socket.terminate();
        continue;
      }
      link.alive = false;
      link.socket.ping();
    }
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.settling.add(p);
    void p.finally(() => this.settling.delete(p)).catch(() => undefined);
    return p;
  }

  /** Closes every link and waits until their disconnects are recorded (app close). */
  async close(): Promise<void> {
    clearInterval(this.pinger);
    await Promise.all(
      [...this.links.values()].map(
        (link) =>
          new Promise<void>((resolve) => {
            if (link.socket.readyState === link.socket.CLOSED) return resolve();
            link.socket.once('close', () => resolve());
            link.socket.close(1001, 'server shutting down');
            // A client that does not finish the closing handshake does not hold up shutdown.
            setTimeout(() => link.socket.terminate(), 1_000).unref();
          }),
      ),
    );
    while (this.settling.size > 0) await Promise.allSettled([...this.settling]);
  }
}
