import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type { Bus, BusHandler } from './bus.js';

/**
 * The bus over Redis pub/sub (REDIS_URL), for many server processes behind one load
 * balancer. A subscribed Redis connection can do nothing but (un)subscribe, so publishing
 * uses a second connection. One Redis subscription per channel, however many local
 * handlers; each handler gets its own parse of the message, as with the in-process bus.
 */
// ioredis loads when a Redis bus is made, not at every start: one process without REDIS_URL
// never needs it (a sixth of the server's start-up).
const require = createRequire(import.meta.url);

export class RedisBus implements Bus {
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly channels = new Map<string, Set<BusHandler>>();
  // The SUBSCRIBE in flight per channel, so a second subscriber also waits until it is live.
  private readonly subscribing = new Map<string, Promise<unknown>>();
  private closed = false;
  private readonly gapHandlers = new Set<() => void>();
  private connectedBefore = false;

  constructor(url: string, private readonly onError: (err: unknown) => void = () => undefined) {
    // Commands issued while the connection is down are queued and sent on reconnect
    // (ioredis' offline queue), and subscriptions are restored on reconnect.
    const { Redis: Client } = require('ioredis') as typeof import('ioredis');
    this.pub = new Client(url, { lazyConnect: false, maxRetriesPerRequest: 3 });
    this.sub = new Client(url, { lazyConnect: false });
    this.pub.on('error', (err) => this.onError(err));
    this.sub.on('error', (err) => this.onError(err));
    this.sub.on('message', (channel: string, text: string) => this.deliver(channel, text));
    // Every 'ready' after the first is a reconnection: whatever was published while the
    // connection was down is lost. ioredis sends the SUBSCRIBEs again as it gets ready; a PING
    // queued after them answers once they are live, and only then is the gap announced (a
    // cache dropped earlier could be filled again from a change still unheard).
    this.sub.on('ready', () => {
      if (!this.connectedBefore) {
        this.connectedBefore = true;
        return;
      }
      setImmediate(() => {
        if (this.closed) return;
        this.sub.ping().then(
          () => this.announceGap(),
          (err: unknown) => this.onError(err),
        );
      });
    });
  }

  onGap(handler: () => void): () => void {
    const mine = () => handler();
    this.gapHandlers.add(mine);
    return () => void this.gapHandlers.delete(mine);
  }

  private announceGap(): void {
    for (const handler of [...this.gapHandlers]) {
      try {
        handler();
      } catch (err) {
        this.onError(err);
      }
    }
  }

  /** Resolves once both connections are up (main.ts fails fast on a wrong REDIS_URL). */
  async ready(): Promise<void> {
    await Promise.all([this.pub.ping(), this.sub.ping()]);
  }

  private deliver(channel: string, text: string): void {
    const handlers = this.channels.get(channel);
    if (!handlers) return;
    for (const handler of [...handlers]) {
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch (err) {
        this.onError(err);
        return;
      }
      try {
        handler(message);
      } catch (err) {
        this.onError(err);
      }
    }
  }

  async publish(channel: string, message: unknown): Promise<number> {
    if (this.closed) return 0;
    return this.pub.publish(channel, JSON.stringify(message));
  }

  async subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>> {
    let handlers = this.channels.get(channel);
    const first = !handlers;
    if (!handlers) this.channels.set(channel, (handlers = new Set()));
    const mine: BusHandler = (m) => handler(m);
    handlers.add(mine);
    if (first) {
      const live = this.sub.subscribe(channel).finally(() => this.subscribing.delete(channel));
      this.subscribing.set(channel, live);
    }
    await this.subscribing.get(channel);
    return async () => {
      const current = this.channels.get(channel);
      if (!current || !current.delete(mine) || current.size > 0) return;
      this.channels.delete(channel);
      if (!this.closed) await this.sub.unsubscribe(channel).catch((err: unknown) => this.onError(err));
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.channels.clear();
    await Promise.all([this.pub.quit().catch(() => this.pub.disconnect()), this.sub.quit().catch(() => this.sub.disconnect())]);
  }
}
