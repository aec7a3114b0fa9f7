import { DEFAULT_CATALOGUE } from '@flotilla/model';
import { describe, expect, it } from 'vitest';
import { cycleOfInterval, freePlanBlocked, isBankDebit, nextBill, planColumns, plansFromRows, proposalFromParams, proposalView, setupReturnUrl, usageRows } from './billing-view';

const now = new Date('2026-11-27T10:00:00Z');
const plans = DEFAULT_CATALOGUE.plans;
const byCode = (code: string) => plans.find((p) => p.code === code)!;

describe('planColumns (spec 3 §2/§4 plans table)', () => {
  it('lists the self-serve plans in tier order with enterprise last', () => {
    const shuffled = [byCode('enterprise-v2'), ...plans.filter((p) => p.code !== 'enterprise-v2')];
    expect(planColumns(shuffled, { code: 'free', cycle: 'monthly' }, 'monthly', now).map((c) => c.plan.code)).toEqual([
      'free',
      'prototype-v2',
      'pilot-v2',
      'production-v2',
      'enterprise-v2',
    ]);
  });

  it('gives each column the model outcome from the free plan', () => {
    const columns = planColumns(plans, { code: 'free', cycle: 'monthly' }, 'monthly', now);
    expect(Object.fromEntries(columns.map((c) => [c.plan.code, c.outcome]))).toEqual({
      free: 'current',
      'prototype-v2': 'upgrade',
      'pilot-v2': 'upgrade',
      'production-v2': 'upgrade',
      'enterprise-v2': 'contact-sales',
    });
  });

  it('offers a cycle change on the current tier in the other cycle, downgrades below, and prices annual as ÷ 12', () => {
    const columns = planColumns(plans, { code: 'pilot-v2', cycle: 'monthly' }, 'annual', now);
    const pilot = columns.find((c) => c.plan.code === 'pilot-v2')!;
    expect(pilot.outcome).toBe('cycle-change');
    expect(pilot.monthlyCents).toBe(Math.round(299000 / 12));
    expect(columns.find((c) => c.plan.code === 'prototype-v2')!.outcome).toBe('downgrade');
    expect(columns.find((c) => c.plan.code === 'free')!.outcome).toBe('downgrade');
  });

  it('leaves out plans that are no longer valid or legacy', () => {
    const expired = { ...byCode('pilot-v2'), validUntil: '2026-01-01T00:00:00Z' };
    const legacy = { ...byCode('prototype-v2'), isLegacy: true };
    const codes = planColumns([byCode('free'), legacy, expired, byCode('production-v2')], { code: 'free', cycle: 'monthly' }, 'monthly', now).map((c) => c.plan.code);
    expect(codes).toEqual(['free', 'production-v2']);
  });
});

describe('proposalView (spec 3 §4 confirmation)', () => {
  const devices = { total: 3, frozen: 0 };
  it("labels a paid target 'Pay now' and a free one 'Confirm'", () => {
    expect(proposalView({ target: byCode('pilot-v2'), current: byCode('free'), paymentType: 'manual', devices }).confirmLabel).toBe('Pay now');
    expect(proposalView({ target: byCode('free'), current: byCode('pilot-v2'), paymentType: 'manual', devices }).confirmLabel).toBe('Confirm');
  });

  it("shows the NACHA terms first ('Next') for a bank debit to a paid plan only", () => {
    const paid = proposalView({ target: byCode('pilot-v2'), current: byCode('free'), paymentType: 'us_bank_account', devices });
    expect(paid).toMatchObject({ termsNeeded: true, confirmLabel: 'Next' });
    expect(proposalView({ target: byCode('free'), current: byCode('pilot-v2'), paymentType: 'us_bank_account', devices }).termsNeeded).toBe(false);
    expect(proposalView({ target: byCode('pilot-v2'), current: byCode('free'), paymentType: 'card', devices }).termsNeeded).toBe(false);
  });

  it("blocks the free plan above the free allowance or with frozen devices ('Contact sales')", () => {
    expect(proposalView({ target: byCode('free'), current: byCode('pilot-v2'), paymentType: 'manual', devices: { total: 11, frozen: 0 } })).toMatchObject({
      freeBlocked: true,
      confirmLabel: 'Contact sales',
    });
    expect(freePlanBlocked({ total: 10, frozen: 0 })).toBe(false);
    expect(freePlanBlocked({ total: 2, frozen: 1 })).toBe(true);
  });

  it('warns that operators become observers on a plan without operator seats, from a plan with them only', () => {
    expect(proposalView({ target: byCode('free'), current: byCode('pilot-v2'), paymentType: 'manual', devices }).lowersOperators).toBe(true);
    expect(proposalView({ target: byCode('prototype-v2'), current: byCode('pilot-v2'), paymentType: 'manual', devices }).lowersOperators).toBe(false);
    expect(proposalView({ target: byCode('pilot-v2'), current: byCode('free'), paymentType: 'manual', devices }).lowersOperators).toBe(false);
  });

  it('marks a lower annual price a downgrade (the feedback box)', () => {
    expect(proposalView({ target: byCode('prototype-v2'), current: byCode('pilot-v2'), paymentType: 'manual', devices }).downgrade).toBe(true);
    expect(proposalView({ target: byCode('production-v2'), current: byCode('pilot-v2'), paymentType: 'manual', devices }).downgrade).toBe(false);
  });
});

describe('usage and next bill', () => {
  it('makes one row per resource with the total overage cost', () => {
    const { rows, totalCents } = usageRows({
      peakUsage: { 'device:microservices-v1': 14, 'member:developer': 2 },
      currentUsage: { 'device:microservices-v1': '12', 'member:developer': 2 },
      overage: { 'device:microservices-v1': 4 },
      charges: { 'device:microservices-v1': '1200', 'member:developer': 0 },
      creditConsumption: {},
    });
    expect(rows).toEqual([
      { resource: 'device:microservices-v1', peak: 14, current: 12, credits: 0, overage: 4, amount: 1200 },
      { resource: 'member:developer', peak: 2, current: 2, credits: 0, overage: 0, amount: 0 },
    ]);
    expect(totalCents).toBe(1200);
    expect(usageRows(undefined)).toEqual({ rows: [], totalCents: 0 });
  });

  it('adds plan, add-ons and usage into the estimate', () => {
    expect(nextBill(29900, 4900, 1200)).toEqual({ plan: 29900, addons: 4900, usage: 1200, total: 36000 });
  });
});

describe('plan rows, cycles, return URLs', () => {
  it('reads pine plan rows into catalogue plans', () => {
    const [plan] = plansFromRows([
      {
        title: 'Pilot',
        billing_code: 'pilot-v2',
        monthly_price: 29900,
        annual_price: 299000,
        can_self_serve: true,
        is_legacy: false,
        is_valid_from__date: null,
        is_valid_until__date: null,
        support_tier: 'standard',
        description: null,
        plan_feature: [{ quantity: 100, feature: [{ slug: 'device:microservices-v1' }] }],
        plan_addon: [{ base_price: 4900, feature: [{ slug: 'member:developer' }] }],
      },
    ]);
    expect(plan).toMatchObject({ code: 'pilot-v2', includes: { 'device:microservices-v1': 100 }, addons: { 'member:developer': 4900 } });
  });

  it('reads the interval unit as a cycle', () => {
    expect(cycleOfInterval('year')).toBe('annual');
    expect(cycleOfInterval('month')).toBe('monthly');
    expect(cycleOfInterval(undefined)).toBe('monthly');
  });

  it('knows bank debits', () => {
    expect(['bank_account', 'us_bank_account', 'sepa_debit'].every(isBankDebit)).toBe(true);
    expect(isBankDebit('card')).toBe(false);
    expect(isBankDebit(null)).toBe(false);
  });

  it('carries the intended plan through the card setup return URL and back', () => {
    const url = setupReturnUrl('https://f.example/orgs/4/billing?plan=x#payment-method', { code: 'pilot-v2', cycle: 'annual' });
    expect(url).toBe('https://f.example/orgs/4/billing?then-propose-plan-tier=pilot-v2&then-propose-plan-cycle=annual');
    const params = new URL(`${url}&setup-intent=seti_1`).searchParams;
    expect(proposalFromParams(params, 'then-propose-plan-tier', 'then-propose-plan-cycle')).toEqual({ code: 'pilot-v2', cycle: 'annual' });
    expect(proposalFromParams(new URLSearchParams('plan=pilot-v2'), 'plan', 'cycle')).toEqual({ code: 'pilot-v2', cycle: 'monthly' });
    expect(proposalFromParams(new URLSearchParams(''), 'plan', 'cycle')).toBeNull();
  });
});
