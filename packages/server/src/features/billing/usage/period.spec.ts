import { describe, expect, it } from 'vitest';
import { addMonths, currentPeriod, nextPeriod, periodEndingAt } from './period.js';

const d = (s: string) => new Date(`${s}T00:00:00Z`);

describe('billing periods', () => {
  it('add calendar months, keeping the day within the target month', () => {
    expect(addMonths(d('2026-01-31'), 1)).toEqual(d('2026-02-28'));
    expect(addMonths(d('2026-03-31'), -1)).toEqual(d('2026-02-28'));
    expect(addMonths(d('2026-11-15'), 2)).toEqual(d('2027-01-15'));
    expect(addMonths(d('2024-02-29'), 12)).toEqual(d('2025-02-28'));
  });

  it('are the one ending at the subscription’s period end, else whole cycles from its start', () => {
    expect(periodEndingAt(d('2026-12-01'), 'monthly')).toEqual({ start: d('2026-11-01'), end: d('2026-12-01') });
    expect(periodEndingAt(d('2026-12-01'), 'annual')).toEqual({ start: d('2025-12-01'), end: d('2026-12-01') });
    expect(nextPeriod(d('2026-12-01'), 'monthly')).toEqual({ start: d('2026-12-01'), end: d('2027-01-01') });
    const sub = { billing_cycle: 'monthly' as const, starts_on__date: d('2026-01-10'), current_period_ends_on__date: null };
    expect(currentPeriod(sub, d('2026-03-20'))).toEqual({ start: d('2026-03-10'), end: d('2026-04-10') });
    expect(currentPeriod({ ...sub, current_period_ends_on__date: d('2026-05-10') }, d('2026-03-20'))).toEqual({ start: d('2026-04-10'), end: d('2026-05-10') });
  });
});
