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
// Their caches, dropped before the write's answer goes out (the bus is asynchronous).
const locals = new Set<(change: DeviceStateChanged) => void>();

/**
 * Called by the device API routes for their app's bus and cache-dropping function; returns
 * the unregistration.
 */
export function useStateBus(bus: Bus, dropLocal?: (change: DeviceStateChanged) => void): () => void {
  buses.add(bus);
  if (dropLocal) locals.add(dropLocal);
  return () => {
    buses.delete(bus);
    if (dropLocal) locals.delete(dropLocal);
  };
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
    for (const drop of locals) drop(message);
    for (const bus of buses) await bus.publish(DEVICE_STATE_CHANGED, message);
  });
}
