import type { DeviceEvent } from '@flotilla/agent';

/**
 * Collects a library agent's events (`startAgent({ onEvent: events.push })`); `next` waits for
 * the first one from now on that matches, failing after `timeoutMs` with the events seen.
 */
export class AgentEvents {
  all: DeviceEvent[] = [];
  private waiters: { match: (e: DeviceEvent) => boolean; resolve: (e: DeviceEvent) => void }[] = [];

  constructor(private readonly defaultTimeoutMs = 15_000) {}

  push = (e: DeviceEvent) => {
    this.all.push(e);
    for (const w of [...this.waiters]) {
      if (!w.match(e)) continue;
      this.waiters.splice(this.waiters.indexOf(w), 1);
      w.resolve(e);
    }
  };

  next<T extends DeviceEvent['type']>(type: T, match: (e: Extract<DeviceEvent, { type: T }>) => boolean = () => true, timeoutMs = this.defaultTimeoutMs) {
    return new Promise<Extract<DeviceEvent, { type: T }>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${type} event in ${timeoutMs} ms; saw ${this.all.map((e) => e.type).join(',')}`)), timeoutMs);
      this.waiters.push({
        match: (e) => e.type === type && match(e as Extract<DeviceEvent, { type: T }>),
        resolve: (e) => {
          clearTimeout(timer);
          resolve(e as Extract<DeviceEvent, { type: T }>);
        },
      });
    });
  }
}
