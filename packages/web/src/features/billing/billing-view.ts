import {
  FREE_DEVICE_ALLOWANCE,
  isSelfServe,
  planChangeConfirmLabel,
  planChangeLowersOperators,
  planChangeOutcome,
  tierOf,
  type BillingCycle,
  type CataloguePlan,
  type PlanChangeOutcome,
} from '@flotilla/model';
import { planFeatureMaps, type PlanFeatureRows } from '../../lib/plan-rows';

/**
 * The billing page's pure reading of the API's answers (spec 3 §2, §4): which column of the
 * plans table offers what, the usage rows, the next bill. Every rule comes from
 * `@flotilla/model` (the server applies the same ones); this only arranges them for display.
 */

/** The enterprise tier, always the plans table's last column (spec 3 §2). */
export const ENTERPRISE_TIER = 'enterprise';

/** `intervalUnit` of balena-sdk's BillingPlanInfo → the cycle. */
export function cycleOfInterval(intervalUnit: string | undefined): BillingCycle {
  return intervalUnit === 'year' || intervalUnit === 'annual' ? 'annual' : 'monthly';
}

/** A `plan` row as pine returns it with its features and add-ons expanded. */
export interface PlanRow extends PlanFeatureRows {
  title: string;
  billing_code: string;
  monthly_price: number;
  annual_price: number;
  can_self_serve: boolean;
  is_legacy: boolean;
  is_valid_from__date: string | null;
  is_valid_until__date: string | null;
  support_tier: string;
  description: string | null;
}

/** The catalogue's plans (in tier order) from their rows. */
export function plansFromRows(rows: readonly PlanRow[]): CataloguePlan[] {
  return rows.map((row) => {
    const { includes, addons } = planFeatureMaps(row);
    return {
      code: row.billing_code,
      title: row.title,
      ...(row.description ? { description: row.description } : {}),
      monthlyPrice: row.monthly_price,
      annualPrice: row.annual_price,
      canSelfServe: row.can_self_serve,
      isLegacy: row.is_legacy,
      validFrom: row.is_valid_from__date,
      validUntil: row.is_valid_until__date,
      supportTier: row.support_tier,
      includes,
      addons,
    };
  });
}

export interface PlanColumn {
  plan: CataloguePlan;
  outcome: PlanChangeOutcome;
  /** The monthly cost in the chosen cycle (annual ÷ 12). */
  monthlyCents: number;
}

/**
 * Spec 3 §2/§4: the plans table's columns: the self-serve plans in tier order plus the
 * enterprise tier last, each with what choosing it in `cycle` means from the current plan.
 */
export function planColumns(plans: readonly CataloguePlan[], current: { code: string; cycle: BillingCycle }, cycle: BillingCycle, now: Date): PlanColumn[] {
  const selfServe = plans.filter((p) => isSelfServe(p, now) && tierOf(p.code) !== ENTERPRISE_TIER);
  const enterprise = plans.filter((p) => tierOf(p.code) === ENTERPRISE_TIER);
  const shown = [...selfServe, ...enterprise];
  const order = shown.map((p) => p.code);
  const currentPlan = plans.find((p) => p.code === current.code);
  const currentSelfServe = currentPlan ? isSelfServe(currentPlan, now) : false;
  return shown.map((plan) => ({
    plan,
    outcome: planChangeOutcome(
      { code: current.code, cycle: current.cycle, selfServe: currentSelfServe },
      { code: plan.code, cycle, selfServe: isSelfServe(plan, now) },
      order,
    ),
    monthlyCents: cycle === 'annual' ? Math.round(plan.annualPrice / 12) : plan.monthlyPrice,
  }));
}

/** Spec 3 §4: a downgrade is a target whose annual price is lower than the current one's. */
export function isDowngrade(current: CataloguePlan | undefined, target: CataloguePlan): boolean {
  return current !== undefined && target.annualPrice < current.annualPrice;
}

/** Bank debits need the NACHA terms before a paid plan (spec 3 §4). */
const BANK_DEBIT_TYPES = ['bank_account', 'us_bank_account', 'sepa_debit'];
export const isBankDebit = (type: string | undefined | null) => type !== undefined && type !== null && BANK_DEBIT_TYPES.includes(type);

/** Spec 3 §4: the free plan is blocked with frozen free devices or more devices than the free allowance. */
export function freePlanBlocked(devices: { total: number; frozen: number }): boolean {
  return devices.frozen > 0 || devices.total > FREE_DEVICE_ALLOWANCE;
}

/** What the confirmation dialog shows for a proposed change (spec 3 §4 flow). */
export function proposalView(input: {
  target: CataloguePlan;
  current: CataloguePlan | undefined;
  paymentType: string | null | undefined;
  devices: { total: number; frozen: number };
}): { termsNeeded: boolean; freeBlocked: boolean; downgrade: boolean; lowersOperators: boolean; confirmLabel: ReturnType<typeof planChangeConfirmLabel> } {
  const free = tierOf(input.target.code) === 'free';
  const limits = (plan: CataloguePlan) => ({ code: plan.code, includes: plan.includes });
  const freeBlocked = free && freePlanBlocked(input.devices);
  const termsNeeded = !free && isBankDebit(input.paymentType);
  return {
    termsNeeded,
    freeBlocked,
    downgrade: isDowngrade(input.current, input.target),
    // The server lowers operators to observers on a plan without operator seats (issue 18).
    lowersOperators: planChangeLowersOperators(limits(input.target)) && (!input.current || !planChangeLowersOperators(limits(input.current))),
    confirmLabel: planChangeConfirmLabel(input.target, { termsNeeded, freeBlocked }),
  };
}

/** `GET …/usage`: each map keyed by resource (`member:administrator`, `device:microservices-v1`). */
export interface BillingUsage {
  currentUsage?: Record<string, number | string>;
  peakUsage?: Record<string, number | string>;
  overage?: Record<string, number | string>;
  charges?: Record<string, number | string>;
  creditConsumption?: Record<string, number | string>;
}

export interface UsageRow {
  resource: string;
  peak: number;
  current: number;
  credits: number;
  overage: number;
  /** Cents. */
  amount: number;
}

const num = (map: Record<string, number | string> | undefined, key: string) => {
  const value = Number(map?.[key] ?? 0);
  return Number.isFinite(value) ? value : 0;
};

/** Spec 3 §2 dynamic usage table: one row per resource, and the total overage cost (cents). */
export function usageRows(usage: BillingUsage | undefined): { rows: UsageRow[]; totalCents: number } {
  if (!usage) return { rows: [], totalCents: 0 };
  const keys = new Set([...Object.keys(usage.peakUsage ?? {}), ...Object.keys(usage.currentUsage ?? {}), ...Object.keys(usage.charges ?? {})]);
  const rows = [...keys].sort().map((resource) => ({
    resource,
    peak: num(usage.peakUsage, resource),
    current: num(usage.currentUsage, resource),
    credits: num(usage.creditConsumption, resource),
    overage: num(usage.overage, resource),
    amount: num(usage.charges, resource),
  }));
  return { rows, totalCents: rows.reduce((sum, r) => sum + r.amount, 0) };
}

/** Spec 3 §2 next bill: plan, prepaid add-ons, dynamic usage and the estimated total (cents). */
export function nextBill(planCents: number, addonCents: number, usageCents: number) {
  return { plan: planCents, addons: addonCents, usage: usageCents, total: planCents + addonCents + usageCents };
}

/** Cents as the API sends them (strings, as the SDK types say) → a number. */
export const cents = (value: string | number | undefined | null) => {
  const n = Number(value ?? 0);
  return Number.isFinite(n) ? n : 0;
};

/** Spec 3 §2: the invoices card shows the latest 6; 'view all' beyond. */
export const INVOICES_SHOWN = 6;

/** The return URL of the card setup (spec 3 §4 payment return flow). */
export function setupReturnUrl(base: string, proposal: { code: string; cycle: BillingCycle } | null): string {
  const url = new URL(base);
  url.search = '';
  url.hash = '';
  if (proposal) {
    url.searchParams.set('then-propose-plan-tier', proposal.code);
    url.searchParams.set('then-propose-plan-cycle', proposal.cycle);
  }
  return url.toString();
}

/** `plan`/`cycle` (or the payment return's) query parameters → a proposal, if well formed. */
export function proposalFromParams(params: URLSearchParams, codeKey: string, cycleKey: string): { code: string; cycle: BillingCycle } | null {
  const code = params.get(codeKey);
  if (!code) return null;
  const cycle = params.get(cycleKey) === 'annual' ? 'annual' : 'monthly';
  return { code, cycle };
}
