import type { Bus } from '../../infra/bus/bus.js';
import type { Db } from '../../infra/db/db.js';

/** The bus channel every process's target-state cache listens on (issue 5 contract). */
export const DEVICE_STATE_CHANGED = 'device-state:changed';

export interface DeviceStateChanged {
  deviceIds?: number[];
  applicationIds?: number[];
}

// The buses of the running apps (one in production; tests may build several apps in one
// process). Business rules are registered once per process, so they publish to each.
const buses = new Set<Bus>();

/** Called by the device API routes for their app's bus; returns the unregistration. */
export function useStateBus(bus: Bus): () => void {
  buses.add(bus);
  return () => buses.delete(bus);
}

/**
 * Announces, once the write has committed, that the target state of some devices (or of
 * every device of some fleets) may have changed; every process drops those cache entries.
 */
export function publishDeviceStateChanged(db: Db, change: DeviceStateChanged): void {
  const message: DeviceStateChanged = {};
  if (change.deviceIds?.length) message.deviceIds = [...change.deviceIds];
  if (change.applicationIds?.length) message.applicationIds = [...change.applicationIds];
  if (!message.deviceIds && !message.applicationIds) return;
  db.afterCommit(async () => {
    for (const bus of buses) await bus.publish(DEVICE_STATE_CHANGED, message);
  });
}
