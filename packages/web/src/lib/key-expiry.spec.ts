import { describe, expect, it } from 'vitest';
import { toDateTimeLocal } from './datetime-local';
import { keyExpiry, keyExpirySchema } from './key-expiry';

describe('API key expiry choices', () => {
  const now = new Date('2030-01-10T12:00:00.000Z');

  it('turns a preset into now plus that many days', () => {
    expect(keyExpiry('1', '', now)).toEqual({ expiryDate: '2030-01-11T12:00:00.000Z' });
    expect(keyExpiry('90', '', now)).toEqual({ expiryDate: '2030-04-10T12:00:00.000Z' });
  });

  it('means null for never and undefined for keep', () => {
    expect(keyExpiry('never', '', now)).toEqual({ expiryDate: null });
    expect(keyExpiry('keep', '', now)).toEqual({ expiryDate: undefined });
  });

  it('refuses a missing or past custom date and accepts a future one', () => {
    expect(keyExpiry('custom', '', now)).toEqual({ error: 'custom_required' });
    expect(keyExpiry('custom', '2001-01-01T00:00', now)).toEqual({ error: 'custom_in_past' });
    const future = keyExpiry('custom', '2031-01-01T00:00', now);
    expect('expiryDate' in future && new Date(future.expiryDate!).getFullYear()).toBe(2031);
  });
});

describe('keyExpiryDate', () => {
  const now = new Date('2026-03-10T12:00:00.000Z');

  it('adds preset days, gives null for never', () => {
    expect(keyExpiry('30', '', now)).toEqual({ expiryDate: '2026-04-09T12:00:00.000Z' });
    expect(keyExpiry('1', '', now)).toEqual({ expiryDate: '2026-03-11T12:00:00.000Z' });
    expect(keyExpiry('never', '', now)).toEqual({ expiryDate: null });
  });
  it('needs a custom date that is not in the past', () => {
    expect(keyExpiry('custom', '', now)).toEqual({ error: 'custom_required' });
    expect(keyExpiry('custom', toDateTimeLocal(new Date(now.getTime() - 60_000)), now)).toEqual({ error: 'custom_in_past' });
    const later = new Date(2027, 0, 1, 8, 30);
    expect(keyExpiry('custom', toDateTimeLocal(later), now)).toEqual({ expiryDate: later.toISOString() });
  });
});

describe('keyExpirySchema', () => {
  const schema = keyExpirySchema((e) => `t:${e}`);

  it('gives the expiry date of the choice', () => {
    expect(schema.parse({ choice: 'never', custom: '' })).toBeNull();
    expect(schema.parse({ choice: 'keep', custom: '' })).toBeUndefined();
    const later = new Date(Date.now() + 60 * 60_000);
    expect(schema.parse({ choice: 'custom', custom: toDateTimeLocal(later) })).toBe(new Date(toDateTimeLocal(later)).toISOString());
  });

  it("refuses a missing or past custom date with the caller's text", () => {
    expect(schema.safeParse({ choice: 'custom', custom: '' }).error?.issues[0]?.message).toBe('t:custom_required');
    expect(schema.safeParse({ choice: 'custom', custom: '2001-01-01T00:00' }).error?.issues[0]?.message).toBe('t:custom_in_past');
  });
});
