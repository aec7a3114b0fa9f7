import { describe, expect, it } from 'vitest';
import type { Actor } from '../http/actor.js';
import { ApiKeyCache } from './api-key-cache.js';

const actor = (actorId: number): Actor => ({ actorId, kind: 'device', deviceId: actorId * 10, permissions: [] });

describe('ApiKeyCache', () => {
  it('answers what was stored until its TTL, then nothing', () => {
    let now = 1_000;
    const cache = new ApiKeyCache(10, 5_000, () => now);
    cache.set('h1', actor(1), null, cache.generation);
    expect(cache.get('h1')?.actorId).toBe(1);
    now += 4_999;
    expect(cache.get('h1')?.actorId).toBe(1);
    now += 1;
    expect(cache.get('h1')).toBeUndefined();
  });

  it('never keeps an entry past its key expiry date', () => {
    let now = 1_000;
    const cache = new ApiKeyCache(10, 60_000, () => now);
    cache.set('soon', actor(1), new Date(now + 500), cache.generation);
    cache.set('gone', actor(2), new Date(now), cache.generation);
    expect(cache.get('soon')?.actorId).toBe(1);
    expect(cache.get('gone')).toBeUndefined();
    now += 500;
    expect(cache.get('soon')).toBeUndefined();
  });

  it('evicts the least recently used entry when full', () => {
    const cache = new ApiKeyCache(3, 60_000, () => 0);
    for (const i of [1, 2, 3]) cache.set(`h${i}`, actor(i), null, cache.generation);
    expect(cache.get('h1')?.actorId).toBe(1); // h2 is now the least recently used
    cache.set('h4', actor(4), null, cache.generation);
    expect(cache.size).toBe(3);
    expect(cache.get('h2')).toBeUndefined();
    expect(cache.get('h1')?.actorId).toBe(1);
    expect(cache.get('h3')?.actorId).toBe(3);
    expect(cache.get('h4')?.actorId).toBe(4);
  });

  it("drops the named actors' keys, or every key", () => {
    const cache = new ApiKeyCache(10, 60_000, () => 0);
    for (const i of [1, 2, 3]) cache.set(`h${i}`, actor(i), null, cache.generation);
    cache.set('h1b', actor(1), null, cache.generation);
    cache.drop({ actorIds: [1, 3] });
    expect([cache.get('h1'), cache.get('h1b'), cache.get('h3')]).toEqual([undefined, undefined, undefined]);
    expect(cache.get('h2')?.actorId).toBe(2);
    cache.drop({});
    expect(cache.size).toBe(0);
  });

  it('does not store a lookup that began before a drop', () => {
    const cache = new ApiKeyCache(10, 60_000, () => 0);
    const began = cache.generation;
    cache.drop({ actorIds: [1] });
    cache.set('h1', actor(1), null, began);
    expect(cache.get('h1')).toBeUndefined();
    cache.set('h1', actor(1), null, cache.generation);
    expect(cache.get('h1')?.actorId).toBe(1);
  });
});
