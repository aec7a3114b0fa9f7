import {
  BILLING_MESSAGES,
  CAPABILITIES,
  CREDIT_EXPIRY_YEARS,
  CREDIT_MESSAGES,
  CREDIT_PURCHASE_MAX,
  DEFAULT_CREDIT_PURCHASE_ERROR,
  creditPurchaseProblem,
} from '@flotilla/model';
import type { AppContext, Rules } from '../../../infra/app/context.js';
import type { Db } from '../../../infra/db/db.js';
import { BadRequestError, NotFoundError } from '../../../infra/errors.js';
import { BILLING_OFF_MESSAGE } from '../access.js';
import { insertInvoice } from '../invoices/invoice.repository.js';
import { paymentProviderOf, selectBillingCustomer, selectBillingInfo } from '../payments/index.js';
import {
  deleteInvoice,
  selectBundleForCharge,
  selectCreditPlan,
  selectFeatureSlug,
  selectUserIdOfActor,
  updateBundleOutcome,
  updateCreditInvoice,
} from './credits.repository.js';

function requireBillingOnFor(app: AppContext): void {
  if (app.config.billing?.enabled !== true) throw new NotFoundError(BILLING_OFF_MESSAGE);
}

async function requireCreditsFeature(tx: Db, featureId: unknown): Promise<void> {
  const slug = typeof featureId === 'number' ? await selectFeatureSlug(tx, featureId) : undefined;
  if (slug !== CAPABILITIES.credits) throw new BadRequestError(CREDIT_MESSAGES.notTheCreditsFeature);
}

/**
 * Spec 3 §4/§5 credit purchase (balena-sdk `creditBundle.create(org, feature, quantity)`).
 * Before the insert: billing on, the quantity a whole number 1..CREDIT_PURCHASE_MAX, the
 * credits feature, a plan that includes credits and prices them, a payment method, and a total
 * under the contact-sales threshold; the server fills in the buyer, prices, expiry and
 * `processing`. After the insert (the create permission, billing access, has then been
 * checked): a credits invoice is written and charged through the payment provider; paid →
 * `paid`, pending (payment by invoice) → `manually invoiced`, both with the credits available;
 * declined → the bundle stays as `failed` with the provider's message and no invoice. A
 * provider that cannot be reached rolls everything back (503).
 */
export function registerCreditBundleRules(rules: Rules): void {
  rules.register('credit_bundle', 'POST', {
    async before({ tx, app, actor, body }) {
      requireBillingOnFor(app);
      const quantity = body.original_quantity;
      if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1 || quantity > CREDIT_PURCHASE_MAX) {
        throw new BadRequestError(CREDIT_MESSAGES.quantity);
      }
      await requireCreditsFeature(tx, body.is_for__feature);
      const org = body.belongs_to__organization;
      if (typeof org !== 'number') throw new BadRequestError('belongs_to__organization is required');
      const plan = await selectCreditPlan(tx, org);
      if (!plan?.includesCredits || plan.unitCents === null) throw new BadRequestError(CREDIT_MESSAGES.planWithoutCredits);
      const problem = creditPurchaseProblem(quantity, plan.unitCents);
      if (problem) throw new BadRequestError(problem);
      if ((await selectBillingInfo(tx, org)) === null) throw new BadRequestError(BILLING_MESSAGES.noPaymentMethod);
      const now = new Date(app.clock());
      const expires = new Date(now);
      expires.setUTCFullYear(expires.getUTCFullYear() + CREDIT_EXPIRY_YEARS);
      body.is_created_by__user = actor.actorId === null ? null : ((await selectUserIdOfActor(tx, actor.actorId)) ?? null);
      body.payment_status = 'processing';
      body.unit_cost = plan.unitCents;
      body.total_cost = quantity * plan.unitCents;
      body.total_balance = 0;
      body.available_balance = 0;
      body.expires_on__date = expires;
      body.is_associated_with__invoice_id = null;
      body.error_message = null;
    },
    async after({ tx, app, ids }) {
      const bundle = await selectBundleForCharge(tx, ids[0]!);
      if (!bundle) return;
      const org = bundle.belongs_to__organization;
      const customer = await selectBillingCustomer(tx, org);
      if (!customer) throw new NotFoundError('Organization not found');
      const provider = paymentProviderOf(app);
      const now = new Date(app.clock());
      const billedTo = { ...((await selectBillingInfo(tx, org)) ?? {}), email: customer.email, company_name: customer.companyName };
      const invoice = await insertInvoice(tx, {
        organization: org,
        kind: 'credits',
        state: 'processing',
        issuedAt: now,
        provider: provider.kind,
        billedTo,
        lines: [{ code: CAPABILITIES.credits, description: 'Device credits', quantity: bundle.original_quantity, unitCostCents: bundle.unit_cost }],
      });
      const result = await provider.charge(customer, {
        invoiceNumber: invoice.invoice_number,
        amountCents: bundle.total_cost,
        description: `${bundle.original_quantity} device credits (${invoice.invoice_number})`,
      });
      if (result.status === 'failed') {
        await deleteInvoice(tx, invoice.id);
        await updateBundleOutcome(tx, bundle.id, { status: 'failed', balance: 0, invoiceNumber: null, errorMessage: result.message || DEFAULT_CREDIT_PURCHASE_ERROR });
        return;
      }
      if (result.status === 'paid') {
        await updateCreditInvoice(tx, invoice.id, 'paid', now, result.reference);
        await updateBundleOutcome(tx, bundle.id, { status: 'paid', balance: bundle.original_quantity, invoiceNumber: invoice.invoice_number, errorMessage: null });
      } else if (provider.kind === 'manual') {
        // Payment by invoice: the credits are usable now; the invoice waits for the transfer.
        await updateCreditInvoice(tx, invoice.id, 'pending', now, result.reference);
        await updateBundleOutcome(tx, bundle.id, { status: 'manually invoiced', balance: bundle.original_quantity, invoiceNumber: invoice.invoice_number, errorMessage: null });
      } else {
        // A card payment still processing (a bank debit): not counted until it is paid.
        await updateCreditInvoice(tx, invoice.id, 'processing', now, result.reference);
        await updateBundleOutcome(tx, bundle.id, { status: 'processing', balance: 0, invoiceNumber: invoice.invoice_number, errorMessage: null });
      }
    },
  });

  const checkThreshold = (value: unknown) => {
    if (value === undefined) return;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > CREDIT_PURCHASE_MAX) throw new BadRequestError(CREDIT_MESSAGES.threshold);
  };
  rules.register('organization_credit_notification', 'POST', {
    async before({ tx, app, body }) {
      requireBillingOnFor(app);
      checkThreshold(body.is_sent_when_below__threshold);
      await requireCreditsFeature(tx, body.owns_credit_notification_for__feature);
      body.is_notified = false;
    },
  });
  rules.register('organization_credit_notification', 'PATCH', {
    before({ app, body }) {
      requireBillingOnFor(app);
      checkThreshold(body.is_sent_when_below__threshold);
      // A new threshold is judged afresh by the next check.
      if (body.is_sent_when_below__threshold !== undefined) body.is_notified = false;
    },
  });
}
