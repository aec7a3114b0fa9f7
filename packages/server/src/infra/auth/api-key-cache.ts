import type { Bus } from '../bus/bus.js';
import type { Db } from '../db/db.js';
import type { Actor } from '../http/actor.js';

/** The bus channel every process's API-key cache listens on. */
export const API_KEYS_CHANGED = 'auth:api-keys-changed';

/** Whose keys changed: `actorIds` drops those actors' keys; neither field drops every key. */
export interface ApiKeysChanged {
  actorIds?: number[];
}

interface Entry {
  actor: Actor;
  /** Epoch ms after which the entry must be read again (TTL, or the key's own expiry). */
  until: number;
}

/**
 * How long an API key's lookup is kept (15 min). Longer than the poll interval of a device
 * (balenaOS's default 10 min, the soak's 60 s), so an unchanged device's poll costs no
 * lookup; at 60 s, the life this had before, nearly every poll of a 60-s poller read its key
 * again (the soak's most frequent statement, issue 21). Revocations do not wait for it: they
 * drop entries at once through the bus, and a gap in the bus drops every entry; the life
 * only bounds a change made past the application (SQL by hand).
 */
export const API_KEY_CACHE_TTL_MS = 15 * 60_000;

/**
 * Per-process cache of API key → actor, so a device's poll costs no key lookup. Keyed by
 * the key's sha256 (never the key itself), bounded (least recently used entries go first),
 * and every entry lives at most `ttlMs` and never past its key's expiry date. Writes that
 * revoke a key (key deleted or changed, its device/fleet/user deleted, a device moved)
 * drop entries at once on this process and, through the bus, on every other one; when the
 * bus may have missed messages (`Bus.onGap`), every entry goes.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every drop: a lookup that began before one must not store its (stale) result. */
  generation = 0;

  constructor(
    readonly max = 100_000,
    readonly ttlMs = API_KEY_CACHE_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(hash: string): Actor | undefined {
    const e = this.entries.get(hash);
    if (!e) return undefined;
    const now = this.now();
    if (now >= e.until) {
      this.entries.delete(hash);
      return undefined;
    }
    // Recently used: to the end of the insertion order, which is the eviction order.
    this.entries.delete(hash);
    this.entries.set(hash, e);
    return e.actor;
  }

  /** Stores a lookup made when `generation` was `builtAt`; `expiry` is the key's expiry date. */
  set(hash: string, actor: Actor, expiry: Date | null, builtAt: number): void {
    if (builtAt !== this.generation) return;
    const now = this.now();
    const until = Math.min(now + this.ttlMs, expiry ? expiry.getTime() : Infinity);
    if (until <= now) return;
    this.entries.delete(hash);
    while (this.entries.size >= this.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    this.entries.set(hash, { actor, until });
  }

  drop(change: ApiKeysChanged): void {
    this.generation++;
    if (!change.actorIds) {
      this.entries.clear();
      return;
    }
    if (change.actorIds.length === 0) return;
    const actors = new Set(change.actorIds);
    for (const [hash, e] of this.entries) if (actors.has(e.actor.actorId)) this.entries.delete(hash);
  }
}

/**
 * One app's announcements of API key changes, connected to its cache and its bus: the cache
 * drops what `auth:api-keys-changed` names, and `forget` reaches both. buildApp makes one
 * per app (AppContext.apiKeyChanges); `close` disconnects it.
 */
export class ApiKeyChanges {
  private constructor(
    private readonly cache: ApiKeyCache,
    private readonly bus: Bus,
    private readonly unsubscribe: () => Promise<void>,
  ) {}

  static async connect(cache: ApiKeyCache, bus: Bus): Promise<ApiKeyChanges> {
    const unsubscribe = await bus.subscribe(API_KEYS_CHANGED, (m) => cache.drop(normalise(m)));
    // A revocation announced while the bus was down is lost: every entry goes then.
    const offGap = bus.onGap(() => cache.drop({}));
    return new ApiKeyChanges(cache, bus, async () => {
      offGap();
      await unsubscribe();
    });
  }

  /**
   * Announces, once `db`'s write has committed, that the keys of some actors (or every key)
   * may no longer authenticate as cached: this app's cache drops them before the write's
   * answer goes out, the other processes' when the bus message arrives.
   */
  forget(db: Db, change: ApiKeysChanged): void {
    if (change.actorIds && change.actorIds.length === 0) return;
    const message: ApiKeysChanged = change.actorIds ? { actorIds: [...new Set(change.actorIds)] } : {};
    db.afterCommit(async () => {
      this.cache.drop(message);
      await this.bus.publish(API_KEYS_CHANGED, message);
    });
  }

  close(): Promise<void> {
    return this.unsubscribe();
  }
}

function normalise(m: unknown): ApiKeysChanged {
  const ids = (m as ApiKeysChanged | null)?.actorIds;
  return Array.isArray(ids) ? { actorIds: ids.filter((x) => typeof x === 'number') } : {};
}
