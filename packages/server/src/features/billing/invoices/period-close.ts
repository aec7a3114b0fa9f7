import type { FastifyInstance } from 'fastify';
import type { Db } from '../../../infra/db/db.js';
import { billingEnabled } from '../access.js';
import { paymentProvider, selectBillingCustomer } from '../payments/index.js';
import { nextPeriod, periodEndingAt, recordUsageFor, selectActiveSubscription, selectOrganizationsWithEndedPeriods, updateSubscriptionPeriodEnd, usageSummary } from '../usage/index.js';
import { insertInvoice, selectBilledTo, selectInvoiceById, updateInvoiceCharge, type InvoiceLineInput, type InvoiceRow } from './invoice.repository.js';
import { issueInvoiceMail } from './invoice-mail.js';
import { recomputePastDue } from './past-due.js';

/** Days between issuing an invoice and its due date (bank transfer terms). */
export const INVOICE_DUE_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;
const day = (d: Date) => d.toISOString().slice(0, 10);
/** Periods closed at most in one run for one subscription (a server that was off for long catches up over runs). */
const MAX_PERIODS_PER_RUN = 24;

/**
 * Issue 18 item 4, the period close: a subscription whose period has ended gets one `period`
 * invoice: the closed period's dynamic usage (peak beyond the plan, at the plan's add-on
 * prices, from the ledger) in arrears, and the plan's price for the next period in advance
 * (when it costs something). The period rolls forward in the same transaction, so running it
 * twice writes one invoice (and a unique index on (organization, period_start) keeps it so).
 * The invoice is mailed, then charged through the payment provider (manual: stays open until
 * an administrator marks it paid; paid; failed with the provider's message).
 */
export async function closePeriodsOf(app: FastifyInstance, organization: number): Promise<InvoiceRow[]> {
  if (!billingEnabled(app)) return [];
  const { db } = app.context;
  const issued: InvoiceRow[] = [];
  for (let i = 0; i < MAX_PERIODS_PER_RUN; i++) {
    const now = new Date(app.context.clock());
    const outcome = await db.tx(async (tx) => {
      const sub = await selectActiveSubscription(tx, organization, true);
      const end = sub?.current_period_ends_on__date;
      if (!sub || !end || end > now) return { done: true as const };
      // The last counts of the period that closes now (older periods, caught up late, keep theirs).
      if (i === 0) await recordUsageFor(app, tx, organization);
      const closed = periodEndingAt(end, sub.billing_cycle);
      const next = nextPeriod(end, sub.billing_cycle);
      const usage = await usageSummary(app, tx, sub, closed);
      const lines: InvoiceLineInput[] = [];
      for (const [resource, over] of Object.entries(usage.overage)) {
        const charge = usage.charges[resource] ?? 0;
        if (over <= 0 || charge <= 0) continue;
        const title = usage.prices.titles[resource] ?? resource;
        lines.push({
          code: resource,
          description: `${title}: usage beyond the plan, ${day(closed.start)} to ${day(closed.end)} (peak ${usage.peakUsage[resource] ?? 0})`,
          quantity: over,
          unitCostCents: charge / over,
        });
      }
      const price = sub.billing_cycle === 'annual' ? sub.annual_price : sub.monthly_price;
      const discounted = Math.round(price * (1 - Math.min(100, Math.max(0, sub.discount_percentage)) / 100));
      if (discounted > 0) {
        lines.push({ code: sub.plan_code, description: `${sub.plan_title} plan (${sub.billing_cycle}), ${day(next.start)} to ${day(next.end)}`, quantity: 1, unitCostCents: discounted });
      }
      await updateSubscriptionPeriodEnd(tx, sub.id, next.end);
      if (lines.length === 0) return { done: false as const, invoice: null };
      const invoice = await insertInvoice(tx, {
        organization,
        kind: 'period',
        state: 'open',
        lines,
        issuedAt: now,
        dueOn: new Date(now.getTime() + INVOICE_DUE_DAYS * DAY_MS),
        periodStart: closed.start,
        periodEnd: closed.end,
        provider: paymentProvider(app).kind,
        billedTo: await selectBilledTo(tx, organization),
      });
      await issueInvoiceMail(app, tx, invoice);
      return { done: false as const, invoice };
    });
    if (outcome.done) break;
    if (outcome.invoice) issued.push(await chargeInvoice(app, db, outcome.invoice));
  }
  return issued;
}

/** Charges an issued invoice through the provider and records the outcome on it. */
export async function chargeInvoice(app: FastifyInstance, db: Db, invoice: InvoiceRow): Promise<InvoiceRow> {
  const provider = paymentProvider(app);
  const customer = await selectBillingCustomer(db, invoice.organization);
  if (!customer) return invoice;
  try {
    const result = await provider.charge(customer, { invoiceNumber: invoice.invoice_number, amountCents: invoice.total_in_cents, description: `Invoice ${invoice.invoice_number}` });
    if (result.status === 'paid') {
      await updateInvoiceCharge(db, invoice.id, { state: 'paid', reference: result.reference, paidAt: new Date(app.context.clock()) });
    } else if (result.status === 'pending') {
      await updateInvoiceCharge(db, invoice.id, { state: 'open', reference: result.reference });
    } else {
      await updateInvoiceCharge(db, invoice.id, { state: 'failed', failureMessage: result.message.slice(0, 2000) });
    }
  } catch (err) {
    // The provider could not be reached: the invoice stays open and becomes past due if unpaid.
    app.log.error({ err, invoice: invoice.invoice_number }, 'period close: charging the invoice failed');
  }
  return (await selectInvoiceById(db, invoice.id)) ?? invoice;
}

/** The daily period close: every subscription whose period has ended. Returns the invoices written. */
export async function closeDuePeriods(app: FastifyInstance): Promise<InvoiceRow[]> {
  if (!billingEnabled(app)) return [];
  const out: InvoiceRow[] = [];
  for (const o of await selectOrganizationsWithEndedPeriods(app.context.db, new Date(app.context.clock()))) {
    try {
      out.push(...(await closePeriodsOf(app, o)));
    } catch (err) {
      app.log.error({ err, organization: o }, 'period close failed');
    }
  }
  await recomputePastDue(app, app.context.db);
  return out;
}
