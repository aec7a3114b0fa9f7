import type { Bus } from '../../infra/bus/bus.js';
import type { Db } from '../../infra/db/db.js';

/** The bus channel every process's target-state cache listens on (issue 5 contract). */
export const DEVICE_STATE_CHANGED = 'device-state:changed';

export interface DeviceStateChanged {
  deviceIds?: number[];
  applicationIds?: number[];
}

/**
 * One app's announcements that the target state of some devices (or of every device of some
 * fleets) may have changed. The device API's `setup` makes one per app: its rules publish
 * through it, and its target-state caches listen to it (before the write's answer goes out;
 * the bus is asynchronous) and to the bus (the other processes' writes).
 */
export class StateChanges {
  private readonly locals = new Set<(change: DeviceStateChanged) => void>();

  constructor(private readonly bus: Bus) {}

  /** Calls `drop` for every change this app publishes, once its write has committed; returns the unregistration. */
  onLocal(drop: (change: DeviceStateChanged) => void): () => void {
    this.locals.add(drop);
    return () => {
      this.locals.delete(drop);
    };
  }

  /** Announces, once `db`'s write has committed, a change: this app's caches drop it, then every process's. */
  publish(db: Db, change: DeviceStateChanged): void {
    const message: DeviceStateChanged = {};
    if (change.deviceIds?.length) message.deviceIds = [...change.deviceIds];
    if (change.applicationIds?.length) message.applicationIds = [...change.applicationIds];
    if (!message.deviceIds && !message.applicationIds) return;
    db.afterCommit(async () => {
      for (const drop of this.locals) drop(message);
      await this.bus.publish(DEVICE_STATE_CHANGED, message);
    });
  }
}
