import { describe, expect, it } from 'vitest';
import { dollarsToCents } from './billing-prices';

describe('dollarsToCents (the admin plan editor)', () => {
  it('reads whole dollars and cents', () => {
    expect(dollarsToCents('29')).toBe(2900);
    expect(dollarsToCents('29.9')).toBe(2990);
    expect(dollarsToCents(' 29.99 ')).toBe(2999);
    expect(dollarsToCents('0')).toBe(0);
  });
  it('refuses what is not an amount', () => {
    for (const bad of ['', '-1', '1.999', 'abc', '1e3', '12345678']) expect(dollarsToCents(bad)).toBeUndefined();
  });
});
