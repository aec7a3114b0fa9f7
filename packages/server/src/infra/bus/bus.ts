/**
 * The pub/sub bus (ARCHITECTURE: everything that crosses requests — device actions, log
 * fan-out, terminal relay, cache invalidation — goes through it, never through process
 * memory, so a browser on node A reaches a device linked to node B). In-process by default;
 * with REDIS_URL, Redis pub/sub (one implementation per file in this folder).
 *
 * Messages are JSON values: the in-process bus copies them as Redis would serialise them,
 * so code that works on one process works on many.
 */
export type BusHandler = (message: unknown) => void;

export interface Bus {
  /**
   * Resolves with how many processes receive the message (Redis' PUBLISH count: one per
   * subscribed process); 0 means nobody listens on the channel right now and the message is gone.
   */
  publish(channel: string, message: unknown): Promise<number>;
  /** Resolves once the subscription is live; the result unsubscribes. */
  subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>>;
  /**
   * `handler` runs whenever messages may have been missed: once a lost connection is back and
   * its subscriptions are live again (Redis). What a process keeps fresh through messages
   * (caches dropped on change) must then drop everything. The in-process bus never misses
   * one, so it never calls `handler`. The result removes the handler.
   */
  onGap(handler: () => void): () => void;
  close(): Promise<void>;
}

/** One process: handlers run asynchronously, each with its own JSON copy of the message. */
export class InProcessBus implements Bus {
  private readonly channels = new Map<string, Set<BusHandler>>();

  publish(channel: string, message: unknown): Promise<number> {
    const handlers = this.channels.get(channel);
    if (!handlers || handlers.size === 0) return Promise.resolve(0);
    const text = JSON.stringify(message);
    for (const handler of [...handlers]) {
      setImmediate(() => handler(JSON.parse(text)));
    }
    return Promise.resolve(1);
  }

  subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>> {
    let handlers = this.channels.get(channel);
    if (!handlers) this.channels.set(channel, (handlers = new Set()));
    const mine = (m: unknown) => handler(m);
    handlers.add(mine);
    return Promise.resolve(async () => {
      handlers.delete(mine);
      if (handlers.size === 0) this.channels.delete(channel);
    });
  }

  onGap(): () => void {
    return () => undefined;
  }

  close(): Promise<void> {
    this.channels.clear();
    return Promise.resolve();
  }
}
