/** A subscription's billing period (issue 18): monthly or annual, ending at `current_period_ends_on__date`. */

export interface ActiveSubscription {
  id: number;
  organization: number;
  plan: number;
  plan_code: string;
  plan_title: string;
  monthly_price: number;
  annual_price: number;
  billing_cycle: 'monthly' | 'annual';
  starts_on__date: Date;
  current_period_ends_on__date: Date | null;
  discount_percentage: number;
}

const monthsOf = (cycle: 'monthly' | 'annual') => (cycle === 'annual' ? 12 : 1);

/** `date` plus `months` calendar months (UTC), the day kept within the target month. */
export function addMonths(date: Date, months: number): Date {
  const d = new Date(date.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

/** The period that ends at `end`. */
export function periodEndingAt(end: Date, cycle: 'monthly' | 'annual'): { start: Date; end: Date } {
  return { start: addMonths(end, -monthsOf(cycle)), end };
}

/** The period after the one ending at `end`. */
export function nextPeriod(end: Date, cycle: 'monthly' | 'annual'): { start: Date; end: Date } {
  return { start: end, end: addMonths(end, monthsOf(cycle)) };
}

/**
 * The subscription's current period: the one ending at `current_period_ends_on__date` (until
 * the period close rolls it forward), else counted in whole cycles from its start.
 */
export function currentPeriod(sub: Pick<ActiveSubscription, 'billing_cycle' | 'starts_on__date' | 'current_period_ends_on__date'>, now: Date): { start: Date; end: Date } {
  if (sub.current_period_ends_on__date) return periodEndingAt(sub.current_period_ends_on__date, sub.billing_cycle);
  let start = sub.starts_on__date;
  for (let i = 0; i < 1200; i++) {
    const end = addMonths(start, monthsOf(sub.billing_cycle));
    if (end > now) return { start, end };
    start = end;
  }
  return { start, end: addMonths(start, monthsOf(sub.billing_cycle)) };
}

export const periodMonths = monthsOf;
