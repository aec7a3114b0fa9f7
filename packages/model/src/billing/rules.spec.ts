import { describe, expect, it } from 'vitest';
import { DEFAULT_CATALOGUE, formatCents, isSelfServe, monthlyCost, tierOf } from './catalogue.js';
import { creditsNeeded, invoiceTone, pastDueStage, planChangeConfirmLabel, planChangeOutcome } from './rules.js';

const order = ['free', 'prototype-v2', 'pilot-v2', 'production-v2', 'enterprise-v2'];
const p = (code: string, cycle: 'monthly' | 'annual' = 'monthly', selfServe = code !== 'enterprise-v2') => ({ code, cycle, selfServe });

describe('plan change outcome (spec 3 §4)', () => {
  it.each([
    [p('free'), p('free'), 'current'],
    [p('pilot-v2', 'annual'), p('pilot-v2', 'annual'), 'current'],
    [p('pilot-v2'), p('enterprise-v2'), 'contact-sales'],
    [p('enterprise-v2'), p('free'), 'contact-sales'],
    [p('pilot-v2', 'monthly'), p('pilot-v2', 'annual'), 'cycle-change'],
    [p('free'), p('prototype-v2'), 'upgrade'],
    [p('prototype-v2', 'annual'), p('production-v2', 'monthly'), 'upgrade'],
    [p('production-v2'), p('pilot-v2'), 'downgrade'],
    [p('pilot-v2', 'annual'), p('free'), 'downgrade'],
  ] as const)('%o → %o is %s', (current, target, outcome) => {
    expect(planChangeOutcome(current, target, order)).toBe(outcome);
  });

  it('labels the confirm button', () => {
    expect(planChangeConfirmLabel({ monthlyPrice: 9900 }, { termsNeeded: false, freeBlocked: false })).toBe('Pay now');
    expect(planChangeConfirmLabel({ monthlyPrice: 0 }, { termsNeeded: false, freeBlocked: false })).toBe('Confirm');
    expect(planChangeConfirmLabel({ monthlyPrice: 9900 }, { termsNeeded: true, freeBlocked: false })).toBe('Next');
    expect(planChangeConfirmLabel({ monthlyPrice: 0 }, { termsNeeded: false, freeBlocked: true })).toBe('Contact sales');
  });
});

describe('invoice states (spec 3 §4)', () => {
  it.each([
    ['paid', 'done'], ['voided', 'done'], ['void', 'done'], ['closed', 'done'],
    ['pending', 'waiting'], ['open', 'waiting'], ['processing', 'waiting'], ['draft', 'waiting'],
    ['past_due', 'danger'], ['failed', 'danger'], ['refunded', 'done'],
  ])('%s is %s', (state, tone) => expect(invoiceTone(state)).toBe(tone));
});

describe('past-due timeline (spec 3 §4)', () => {
  const since = new Date('2026-01-01T00:00:00Z');
  const at = (days: number) => new Date(since.getTime() + days * 86_400_000 + 3_600_000);
  it.each([
    [0, 'warning', 60], [29, 'warning', 31], [30, 'error', 30], [59, 'error', 1], [60, 'frozen', 0], [90, 'frozen', 0],
  ] as const)('%i days past due is %s with %i days left', (days, stage, left) => {
    expect(pastDueStage(since, at(days))).toEqual({ stage, days, daysUntilFrozen: left });
  });
  it('is none without a past-due date', () => expect(pastDueStage(null, at(1)).stage).toBe('none'));
});

describe('catalogue', () => {
  it('prices seats by role (observer free, operator $29, developer and administrator $49) and devices by class', () => {
    const pilot = DEFAULT_CATALOGUE.plans.find((x) => x.code === 'pilot-v2')!;
    expect([pilot.addons['member:observer'], pilot.addons['member:operator'], pilot.addons['member:developer'], pilot.addons['member:administrator']]).toEqual([0, 2900, 4900, 4900]);
    expect([pilot.addons['device:legacy-v1'], pilot.addons['device:microservices-v1']]).toEqual([150, 200]);
    const proto = DEFAULT_CATALOGUE.plans.find((x) => x.code === 'prototype-v2')!;
    expect([proto.addons['device:legacy-v1'], proto.addons['device:microservices-v1']]).toEqual([200, 300]);
  });
  it('derives monthly cost, tiers, self-serve and money', () => {
    expect(monthlyCost({ monthlyPrice: 9900, annualPrice: 99000 }, 'annual')).toBe(8250);
    expect(tierOf('production-v2')).toBe('production');
    const now = new Date('2026-06-01T00:00:00Z');
    const base = { code: 'pilot-v2', canSelfServe: true, isLegacy: false, monthlyPrice: 100, annualPrice: 1000 };
    expect(isSelfServe(base, now)).toBe(true);
    expect(isSelfServe({ ...base, isLegacy: true }, now)).toBe(false);
    expect(isSelfServe({ ...base, monthlyPrice: 0, annualPrice: 0 }, now)).toBe(false);
    expect(isSelfServe({ ...base, code: 'free', monthlyPrice: 0, annualPrice: 0 }, now)).toBe(true);
    expect(isSelfServe({ ...base, validUntil: '2026-05-01T00:00:00Z' }, now)).toBe(false);
    expect(isSelfServe({ ...base, validFrom: '2026-07-01T00:00:00Z' }, now)).toBe(false);
    expect(formatCents(2900)).toBe('$29.00');
    expect(formatCents(123456789)).toBe('$1,234,567.89');
  });
});

describe('credits runway (spec 3 §5)', () => {
  it('is max(0, ceil((current + estimated − included) × months / 2) − balance)', () => {
    expect(creditsNeeded({ currentDevices: 20, estimatedDevices: 1, includedDevices: 10, months: 12, balance: 0 })).toBe(66);
    expect(creditsNeeded({ currentDevices: 20, estimatedDevices: 1, includedDevices: 10, months: 12, balance: 60 })).toBe(6);
    expect(creditsNeeded({ currentDevices: 2, estimatedDevices: 1, includedDevices: 10, months: 12, balance: 0 })).toBe(0);
    expect(creditsNeeded({ currentDevices: 10, estimatedDevices: 1, includedDevices: 10, months: 3, balance: 0 })).toBe(2);
  });
});
