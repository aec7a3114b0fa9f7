import { describe, expect, it } from 'vitest';
import { etagOf, TargetStateCache } from './state-cache.js';

const entry = (applicationId: number) => ({ uuid: 'u', applicationId, etag: etagOf(String(applicationId)), text: '{}' });

describe('TargetStateCache', () => {
  it('drops entries by device, by fleet, or all', () => {
    const c = new TargetStateCache();
    c.set(1, entry(10), c.generation);
    c.set(2, entry(10), c.generation);
    c.set(3, entry(20), c.generation);
    c.drop({ deviceIds: [1] });
    expect([c.get(1), !!c.get(2), !!c.get(3)]).toEqual([undefined, true, true]);
    c.drop({ applicationIds: [10] });
    expect([c.get(2), !!c.get(3)]).toEqual([undefined, true]);
    c.drop({});
    expect(c.get(3)).toBeUndefined();
  });

  it('does not keep a state built before an invalidation arrived', () => {
    const c = new TargetStateCache();
    const startedAt = c.generation;
    c.drop({ deviceIds: [99] });
    c.set(1, entry(10), startedAt);
    expect(c.get(1)).toBeUndefined();
  });

  it('gives strong ETags that change with the body', () => {
    expect(etagOf('a')).toMatch(/^"[^"]+"$/);
    expect(etagOf('a')).toBe(etagOf('a'));
    expect(etagOf('a')).not.toBe(etagOf('b'));
  });
});
