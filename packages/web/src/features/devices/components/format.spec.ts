import { describe, expect, it } from 'vitest';
import { formatElapsed } from './format';

describe('formatElapsed (last update status duration)', () => {
  const now = Date.parse('2026-11-22T12:00:00Z');
  const ago = (ms: number) => new Date(now - ms).toISOString();
  const unit = (n: number, u: string) => new Intl.NumberFormat(undefined, { style: 'unit', unit: u, unitDisplay: 'long' }).format(n);

  it('uses the largest whole unit', () => {
    expect(formatElapsed(ago(42_000), now)).toBe(unit(42, 'second'));
    expect(formatElapsed(ago(3 * 60_000 + 59_000), now)).toBe(unit(3, 'minute'));
    expect(formatElapsed(ago(5 * 3_600_000), now)).toBe(unit(5, 'hour'));
    expect(formatElapsed(ago(2 * 86_400_000 + 1), now)).toBe(unit(2, 'day'));
  });

  it('says 0 seconds for now or a clock slightly ahead, and nothing without a time', () => {
    expect(formatElapsed(ago(-5_000), now)).toBe(unit(0, 'second'));
    expect(formatElapsed(null, now)).toBeUndefined();
    expect(formatElapsed('not a date', now)).toBeUndefined();
  });
});
