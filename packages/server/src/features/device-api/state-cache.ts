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
