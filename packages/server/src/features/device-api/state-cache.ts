import { createHash } from 'node:crypto';
import type { DeviceStateChanged } from './state-changes.js';

export interface CachedState {
  uuid: string;
  applicationId: number;
  etag: string;
  text: string;
}

/** A strong ETag: the hash of the body as sent. */
export function etagOf(text: string): string {
  return `"${createHash('sha256').update(text).digest('base64url').slice(0, 32)}"`;
}

/**
 * Per-process cache of target states by device id, so an unchanged poll (304) reads no
 * device data. Entries go when a `device-state:changed` message names the device or its
 * fleet (a message naming neither drops everything).
 */
export class TargetStateCache {
  private readonly entries = new Map<number, CachedState>();
  private static readonly MAX = 50_000;
  /**
   * Bumped by every invalidation: a state built while a change arrived may predate it, so
   * `set` keeps it only when no invalidation happened since the build began.
   */
  generation = 0;

  get(deviceId: number): CachedState | undefined {
    return this.entries.get(deviceId);
  }

  set(deviceId: number, entry: CachedState, builtAt: number): void {
    if (builtAt !== this.generation) return;
    if (this.entries.size >= TargetStateCache.MAX) this.entries.clear();
    this.entries.set(deviceId, entry);
  }

  drop(change: DeviceStateChanged): void {
    this.generation++;
    if (!change.deviceIds && !change.applicationIds) {
      this.entries.clear();
      return;
    }
    for (const id of change.deviceIds ?? []) this.entries.delete(id);
    if (change.applicationIds?.length) {
      const apps = new Set(change.applicationIds);
      for (const [id, e] of this.entries) if (apps.has(e.applicationId)) this.entries.delete(id);
    }
  }
}

/**
 * Per-process cache of the fleet part of target states (one per fleet and release), so
 * rebuilding a device's state after a change reads only the device's own rows. Concurrent
 * misses share one read. Dropped by the same messages as the device entries.
 */
export class FleetPartCache<T> {
  private readonly entries = new Map<string, { appId: number; value: Promise<T> }>();
  private static readonly MAX = 5_000;

  get(appId: number, target: number | null, load: () => Promise<T>): Promise<T> {
    const key = `${appId}/${target ?? ''}`;
    const hit = this.entries.get(key);
    if (hit) return hit.value;
    if (this.entries.size >= FleetPartCache.MAX) this.entries.clear();
    const value = load();
    const entry = { appId, value };
    this.entries.set(key, entry);
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return value;
  }

  drop(change: DeviceStateChanged): void {
    if (!change.deviceIds && !change.applicationIds) {
      this.entries.clear();
      return;
    }
    if (!change.applicationIds?.length) return;
    const apps = new Set(change.applicationIds);
    for (const [key, e] of this.entries) if (apps.has(e.appId)) this.entries.delete(key);
  }
}
