import {
  includedQuantity,
  BILLING_LIMIT_MESSAGES as M,
  DEVICE_CLASS_LABELS,
  DEVICE_CLASSES,
  deviceFeature,
  freePlanBlocked,
  isSelfServe,
  OPERATOR_FALLBACK_ROLE,
  planChangeLowersOperators,
  planChangeOutcome,
  SEAT_ROLE_LABELS,
  SEAT_ROLES,
  seatFeature,
  tierOf,
  type BillingCycle,
  type CataloguePlan,
  type PlanChangeOutcome,
} from '@flotilla/model';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../../infra/db/db.js';
import { BadRequestError, ConflictError, HttpError } from '../../../infra/errors.js';
import { announceFrozenDevicesChanged } from '../invoices/frozen.js';
import { insertInvoice } from '../invoices/invoice.repository.js';
import { issueInvoiceMail } from '../invoices/invoice-mail.js';
import { INVOICE_DUE_DAYS } from '../invoices/period-close.js';
import { paymentProvider, selectBillingCustomer, type BillingCustomer } from '../payments/index.js';
import {
  countDevices,
  countDevicesByClass,
  countSeatsByRole,
  endSubscription,
  insertSubscription,
  lockOrganization,
  lowerOperators,
  recordCharge,
  selectPlans,
  type PlanWithFeatures,
  type SubscriptionRow,
} from './plans.repository.js';
import { currentPlan } from './subscriptions.js';

/** 402: the payment provider refused the charge (its message). */
export class PaymentRequiredError extends HttpError {
  constructor(message: string) {
    super(402, message);
  }
}

/** The message of a plan change whose charge was taken but could not be recorded (and was refunded). */
export const CHARGE_NOT_RECORDED_MESSAGE = 'The plan could not be changed; the payment taken for it has been refunded. Please try again.';

/** Refunds a paid charge whose plan change was rolled back; 503 with what happened (the error is logged). */
async function refundUnrecorded(app: FastifyInstance, taken: { customer: BillingCustomer; reference: string; amountCents: number }, cause: unknown): Promise<never> {
  const log = { organization: taken.customer.organizationId, reference: taken.reference, amountCents: taken.amountCents, err: cause };
  try {
    await paymentProvider(app).refund(taken.customer, taken.reference, taken.amountCents);
  } catch (refundErr) {
    app.log.error({ ...log, refundErr }, 'billing: a plan change was charged but not recorded, and the refund failed: refund it by hand');
    throw cause;
  }
  app.log.error(log, 'billing: a plan change was charged but not recorded; the charge was refunded');
  throw new HttpError(503, CHARGE_NOT_RECORDED_MESSAGE);
}

/** The model's catalogue view of a plan row (for isSelfServe and the outcome rules). */
export function cataloguePlanOf(p: PlanWithFeatures): CataloguePlan {
  return {
    code: p.billing_code,
    title: p.title,
    monthlyPrice: p.monthly_price,
    annualPrice: p.annual_price,
    canSelfServe: p.can_self_serve,
    isLegacy: p.is_legacy,
    validFrom: p.is_valid_from__date?.toISOString() ?? null,
    validUntil: p.is_valid_until__date?.toISOString() ?? null,
    supportTier: p.support_tier,
    includes: p.includes,
    addons: p.addons,
  };
}

export const cyclePrice = (p: PlanWithFeatures, cycle: BillingCycle): number => (cycle === 'annual' ? p.annual_price : p.monthly_price);

interface Charge {
  itemType: string;
  name: string;
  code: string;
  unitCostCents: string;
  quantity: string;
  isQuantifiable: boolean;
}

const title = (s: string) => s.split(/[-_ ]+/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');

/**
 * `GET /billing/v1/account/{org}/plan` in balena-sdk's BillingPlanInfo shape (docs/billing.md):
 * the base price for the cycle, then seats by role over what the plan includes and devices by
 * class over what it includes, each at the plan's per-month add-on price. Money in cents as
 * strings; totalCostCents is one billing interval (a year for an annual plan: add-ons × 12).
 */
export async function planInfo(db: Db, orgId: number, now: Date) {
  const { subscription, plan } = await currentPlan(db, orgId, now);
  const cycle = subscription.billing_cycle;
  const months = cycle === 'annual' ? 12 : 1;
  const seats = await countSeatsByRole(db, orgId);
  const devices = await countDevicesByClass(db, orgId);
  const addons: Charge[] = [];
  for (const role of [...SEAT_ROLES].reverse()) {
    const slug = seatFeature(role);
    const count = seats[role] ?? 0;
    if (count === 0) continue;
    const over = Math.max(0, count - includedQuantity(slug, plan.includes));
    addons.push({ itemType: 'addon', name: SEAT_ROLE_LABELS[role], code: slug, unitCostCents: String(plan.addons[slug] ?? 0), quantity: String(over), isQuantifiable: true });
  }
  for (const c of DEVICE_CLASSES) {
    const slug = deviceFeature(c);
    const count = devices[c] ?? 0;
    if (count === 0) continue;
    const over = Math.max(0, count - includedQuantity(slug, plan.includes));
    addons.push({ itemType: 'addon', name: DEVICE_CLASS_LABELS[c], code: slug, unitCostCents: String(plan.addons[slug] ?? 0), quantity: String(over), isQuantifiable: true });
  }
  const base: Charge = { itemType: 'plan', name: plan.title, code: plan.billing_code, unitCostCents: String(cyclePrice(plan, cycle)), quantity: '1', isQuantifiable: false };
  const addonTotal = addons.reduce((sum, c) => sum + Number(c.unitCostCents) * Number(c.quantity), 0) * months;
  const periodEnd = subscription.current_period_ends_on__date?.toISOString();
  return {
    tier: tierOf(plan.billing_code),
    code: plan.billing_code,
    title: plan.title,
    name: plan.title,
    intervalUnit: cycle === 'annual' ? 'year' : 'month',
    intervalLength: '1',
    ...(periodEnd ? { currentPeriodEndDate: periodEnd } : {}),
    support: { name: plan.support_tier, title: title(plan.support_tier) },
    addonPlan: {
      code: `${plan.billing_code}-addons`,
      ...(periodEnd ? { currentPeriodEndDate: periodEnd } : {}),
      billing: { currency: 'USD', totalCostCents: String(addonTotal), charges: addons },
      addOns: addons.map((a) => ({ code: a.code, unitCostCents: a.unitCostCents, quantity: a.quantity })),
    },
    billing: { currency: 'USD', totalCostCents: String(cyclePrice(plan, cycle) + addonTotal), charges: [base, ...addons] },
  };
}

export interface PlanChangeInput {
  tier: string;
  annual: boolean;
  planChangeReason?: string | undefined;
}

/** The target plan of a code: exactly that billing code, else the one self-serve plan of that tier (`pilot` → `pilot-v2`). */
function findTarget(plans: readonly PlanWithFeatures[], code: string, now: Date): PlanWithFeatures | undefined {
  const exact = plans.find((p) => p.billing_code === code);
  if (exact) return exact;
  const ofTier = plans.filter((p) => tierOf(p.billing_code) === code && isSelfServe(cataloguePlanOf(p), now));
  return ofTier.length === 1 ? ofTier[0] : undefined;
}

/**
 * `PATCH /billing/v1/account/{org}/plan` (spec 3 §4), in one transaction with the organization
 * locked: the outcome over the self-serve plans plus the enterprise tier; refusals write
 * nothing; otherwise the old subscription ends, the new one starts (a fresh period: no
 * proration, docs/decisions.md) and a paid target is invoiced and charged through the payment
 * provider (manual: the invoice stays open; a failed charge rolls everything back, 402).
 */
export async function changePlan(
  app: FastifyInstance,
  orgId: number,
  userId: number,
  input: PlanChangeInput,
): Promise<{ outcome: PlanChangeOutcome; subscription: SubscriptionRow; invoiceNumber?: string; loweredOperators?: number }> {
  const now = new Date(app.context.clock());
  const cycle: BillingCycle = input.annual ? 'annual' : 'monthly';
  // A charge the provider took, while the transaction that records it is not yet committed.
  let taken: { customer: BillingCustomer; reference: string; amountCents: number } | null = null;
  const result = await app.context.db
    .tx(async (tx) => {
      await lockOrganization(tx, orgId);
      const { subscription, plan: current } = await currentPlan(tx, orgId, now);
      const plans = await selectPlans(tx);
      const target = findTarget(plans, input.tier, now);
      if (!target) throw new BadRequestError(M.unknownPlan);
      const selfServe = (p: PlanWithFeatures) => isSelfServe(cataloguePlanOf(p), now);
      const order = plans.filter((p) => selfServe(p) || tierOf(p.billing_code) === 'enterprise').map((p) => p.billing_code);
      const outcome = planChangeOutcome(
        { code: current.billing_code, cycle: subscription.billing_cycle, selfServe: selfServe(current) },
        { code: target.billing_code, cycle, selfServe: selfServe(target) },
        order,
      );
      if (outcome === 'current') throw new ConflictError(M.alreadyCurrent);
      if (outcome === 'contact-sales') throw new BadRequestError(M.contactSales);
      const price = cyclePrice(target, cycle);
      if (price === 0 && freePlanBlocked({ total: await countDevices(tx, orgId) })) throw new BadRequestError(M.freePlanBlocked);
      const provider = paymentProvider(app);
      const customer = await selectBillingCustomer(tx, orgId);
      if (!customer) throw new BadRequestError(M.unknownPlan);
      if (price > 0 && (await provider.getPaymentMethod(customer)) === null) throw new BadRequestError(M.needsPaymentMethod);

      await endSubscription(tx, subscription.id, now);
      const reason = outcome === 'downgrade' ? input.planChangeReason?.trim() || null : null;
      const created = (await insertSubscription(tx, { organization: orgId, plan: target.id, cycle, origin: 'self-serve', changeReason: reason, now }))!;
      // A plan without operator seats keeps no operators: they become observers (docs/decisions.md, issue 18).
      const loweredOperators = planChangeLowersOperators({ code: target.billing_code, includes: target.includes }) ? await lowerOperators(tx, orgId, OPERATOR_FALLBACK_ROLE) : 0;
      let invoiceNumber: string | undefined;
      if (price > 0) {
        const invoice = await insertInvoice(tx, {
          organization: orgId,
          kind: 'subscription',
          state: 'open',
          lines: [{ code: target.billing_code, description: `${target.title} plan (${cycle})`, quantity: 1, unitCostCents: price }],
          issuedAt: now,
          dueOn: new Date(now.getTime() + INVOICE_DUE_DAYS * 24 * 60 * 60 * 1000),
          periodStart: now,
          periodEnd: created.current_period_ends_on__date,
          provider: provider.kind,
          billedTo: { company: customer.companyName, email: customer.email },
        });
        invoiceNumber = invoice.invoice_number;
        const charge = await provider.charge(customer, { invoiceNumber: invoice.invoice_number, amountCents: price, description: `${target.title} plan (${cycle})` });
        if (charge.status === 'failed') throw new PaymentRequiredError(charge.message);
        if (charge.status === 'paid') taken = { customer, reference: charge.reference, amountCents: price };
        await recordCharge(tx, invoice.id, charge.reference, charge.status === 'paid', now);
        await issueInvoiceMail(app, tx, { ...invoice, state: charge.status === 'paid' ? 'paid' : 'open' });
      }
      // Devices beyond the free allowance are frozen on the free plan only: their target state follows the plan.
      if (tierOf(current.billing_code) !== tierOf(target.billing_code)) await announceFrozenDevicesChanged(app.context, tx, [orgId]);
      return { outcome, subscription: created, invoiceNumber, loweredOperators, from: current.billing_code, fromCycle: subscription.billing_cycle, to: target.billing_code };
    })
    .catch(async (err: unknown) => {
      // The card was charged but the change could not be recorded (rolled back): give the money back.
      if (taken) await refundUnrecorded(app, taken, err);
      throw err;
    });
  app.log.info(
    { organization: orgId, user: userId, from: result.from, fromCycle: result.fromCycle, to: result.to, cycle, outcome: result.outcome, invoice: result.invoiceNumber, loweredOperators: result.loweredOperators },
    `billing: user ${userId} changed organization ${orgId} from ${result.from} (${result.fromCycle}) to ${result.to} (${cycle}): ${result.outcome}` +
      (result.loweredOperators > 0 ? `; ${result.loweredOperators} operator grant(s) lowered to ${OPERATOR_FALLBACK_ROLE}` : ''),
  );
  return {
    outcome: result.outcome,
    subscription: result.subscription,
    ...(result.invoiceNumber ? { invoiceNumber: result.invoiceNumber } : {}),
    ...(result.loweredOperators > 0 ? { loweredOperators: result.loweredOperators } : {}),
  };
}

