import type { FastifyInstance } from 'fastify';
import {
  ADMIN_CREDIT_MESSAGES,
  CAPABILITIES,
  CREDIT_EXPIRY_YEARS,
  CREDIT_MESSAGES,
  adminReasonProblem,
  bundleRefundProblem,
  creditGrantProblem,
  invoiceRefundProblem,
} from '@flotilla/model';
import type { Db } from '../../../infra/db/db.js';
import { BadRequestError, NotFoundError } from '../../../infra/errors.js';
import type { Actor } from '../../../infra/http/actor.js';
import { requireBillingOn, requirePlatformAdministrator } from '../access.js';
import { selectInvoiceByNumber, selectOrganizationName, type InvoiceRow } from '../invoices/invoice.repository.js';
import { INVOICE_NOT_FOUND_MESSAGE, invoiceInfo } from '../invoices/invoices.routes.js';
import { paymentProviderOf, selectBillingCustomer } from '../payments/index.js';
import { ensureSubscription } from '../plans/index.js';
import {
  insertAdjustment,
  insertComplimentaryBundle,
  markBundleRefunded,
  markInvoiceRefunded,
  selectAdjustments,
  selectBundleForRefund,
  selectBundleOfInvoice,
  selectBundles,
  selectFeatureIdBySlug,
  selectOrganizationForGrant,
  selectOrganizationsWithCredits,
  selectUsername,
  type BundleForRefund,
} from './admin-credits.repository.js';
import { selectCreditPlan } from './credits.repository.js';

/** Most rows one admin list answers. */
export const ADMIN_CREDITS_PAGE_MAX = 100;

const ID = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;
const INVOICE_NUMBER = { type: 'string', minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9_-]+$' } as const;
const PAGE = { limit: { type: 'integer', minimum: 1, maximum: ADMIN_CREDITS_PAGE_MAX }, offset: { type: 'integer', minimum: 0, maximum: 1_000_000 } } as const;
// The model's rules give the messages (quantity, reason); the schema only bounds the body.
const REASON = { type: 'string', maxLength: 2000 } as const;
const refundBody = { type: 'object', required: ['reason'], additionalProperties: false, properties: { reason: REASON } } as const;

type Administrator = Actor & { userId: number };

function requireAdmin(app: FastifyInstance, request: Parameters<typeof requirePlatformAdministrator>[0]): Administrator {
  requireBillingOn(app);
  return requirePlatformAdministrator(request);
}

/**
 * Issue 18 (admin credits; docs/billing.md "Complimentary credits and refunds"): platform
 * administrators find organizations with their credit balance, list credit bundles, grant
 * complimentary credits, refund paid credit bundles and paid invoices, and read the log of
 * grants and refunds. Everyone else: 403; billing off: 404.
 */
export async function adminCreditRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.context;
  const now = () => new Date(app.context.clock());

  app.get<{ Querystring: { search?: string; limit?: number; offset?: number } }>(
    '/admin/v1/billing/organizations',
    { schema: { querystring: { type: 'object', properties: { search: { type: 'string', maxLength: 100 }, ...PAGE } } }, config: { noStore: true } },
    async (request) => {
      requireAdmin(app, request);
      const search = request.query.search?.trim() || undefined;
      const { rows, total } = await selectOrganizationsWithCredits(db, search, request.query.limit ?? 25, request.query.offset ?? 0, now());
      return {
        total,
        organizations: rows.map((o) => ({
          id: o.id,
          name: o.name,
          handle: o.handle,
          plan: o.plan_code === null ? null : { code: o.plan_code, title: o.plan_title },
          credit_balance: o.credit_balance,
        })),
      };
    },
  );

  app.get<{ Querystring: { organization?: string; organization_id?: number; limit?: number; offset?: number } }>(
    '/admin/v1/billing/credit-bundles',
    {
      schema: { querystring: { type: 'object', properties: { organization: { type: 'string', maxLength: 100 }, organization_id: ID, ...PAGE } } },
      config: { noStore: true },
    },
    async (request) => {
      requireAdmin(app, request);
      const { rows, total } = await selectBundles(
        db,
        { organizationId: request.query.organization_id, name: request.query.organization?.trim() || undefined },
        request.query.limit ?? 25,
        request.query.offset ?? 0,
      );
      return { total, bundles: rows };
    },
  );

  app.get<{ Querystring: { organization_id?: number; limit?: number; offset?: number } }>(
    '/admin/v1/billing/credit-adjustments',
    { schema: { querystring: { type: 'object', properties: { organization_id: ID, ...PAGE } } }, config: { noStore: true } },
    async (request) => {
      requireAdmin(app, request);
      const { rows, total } = await selectAdjustments(db, request.query.organization_id, request.query.limit ?? 25, request.query.offset ?? 0);
      return { total, adjustments: rows };
    },
  );

  app.post<{ Params: { org: number }; Body: { quantity: number; reason: string } }>(
    '/admin/v1/billing/organizations/:org/credits',
    {
      schema: {
        params: { type: 'object', required: ['org'], properties: { org: ID } },
        body: { type: 'object', required: ['quantity', 'reason'], additionalProperties: false, properties: { quantity: { type: 'number' }, reason: REASON } },
      },
      config: { noStore: true, audit: { action: 'billing.credits.grant', targets: [{ resource: 'organization', from: 'params', field: 'org' }] } },
    },
    async (request, reply) => {
      const admin = requireAdmin(app, request);
      const problem = creditGrantProblem(request.body);
      if (problem) throw new BadRequestError(problem);
      const reason = request.body.reason.trim();
      const at = now();
      const bundle = await db.tx(async (tx) => {
        const org = await selectOrganizationForGrant(tx, request.params.org);
        if (!org) throw new NotFoundError('Organization not found');
        await ensureSubscription(tx, org.id, at);
        const plan = await selectCreditPlan(tx, org.id);
        if (!plan?.includesCredits) throw new BadRequestError(ADMIN_CREDIT_MESSAGES.planWithoutCredits(plan?.title ?? 'none'));
        const feature = await selectFeatureIdBySlug(tx, CAPABILITIES.credits);
        if (feature === undefined) throw new BadRequestError(CREDIT_MESSAGES.notTheCreditsFeature);
        const expires = new Date(at);
        expires.setUTCFullYear(expires.getUTCFullYear() + CREDIT_EXPIRY_YEARS);
        const granted = await insertComplimentaryBundle(tx, { organization: org.id, feature, quantity: request.body.quantity, administrator: admin.userId, expires });
        await insertAdjustment(tx, {
          kind: 'grant',
          at,
          organization: org.id,
          organizationName: org.name,
          administrator: admin.userId,
          administratorUsername: await selectUsername(tx, admin.userId),
          creditBundle: granted.id,
          invoiceNumber: null,
          quantity: granted.original_quantity,
          amountCents: 0,
          refundedThrough: null,
          reason,
        });
        return granted;
      });
      request.log.info({ administratorId: admin.userId, organization: bundle.belongs_to__organization, bundle: bundle.id, quantity: bundle.original_quantity }, 'complimentary credits granted');
      return reply.code(201).send(bundle);
    },
  );

  app.post<{ Params: { id: number }; Body: { reason: string } }>(
    '/admin/v1/billing/credit-bundles/:id/refund',
    { schema: { params: { type: 'object', required: ['id'], properties: { id: ID } }, body: refundBody }, config: { noStore: true, audit: { action: 'billing.credit_bundle.refund', targets: [{ resource: 'credit_bundle', from: 'params', field: 'id' }] } } },
    async (request) => {
      const admin = requireAdmin(app, request);
      const reason = checkedReason(request.body.reason);
      const refunded = await db.tx(async (tx) => {
        const bundle = await selectBundleForRefund(tx, request.params.id);
        if (!bundle) throw new NotFoundError(ADMIN_CREDIT_MESSAGES.bundleNotFound);
        const invoice = bundle.is_associated_with__invoice_id === null ? undefined : await selectInvoiceByNumber(tx, bundle.is_associated_with__invoice_id, true);
        return refund(app, tx, admin, { bundle, invoice, reason });
      });
      request.log.info({ administratorId: admin.userId, bundle: request.params.id, invoice: refunded.invoice_number, amountCents: refunded.total_in_cents }, 'credit bundle refunded');
      return invoiceInfo(refunded);
    },
  );

  app.post<{ Params: { number: string }; Body: { reason: string } }>(
    '/admin/v1/billing/invoices/:number/refund',
    // The invoice's organization is named by the handler (invoices are not a data-API resource).
    { schema: { params: { type: 'object', required: ['number'], properties: { number: INVOICE_NUMBER } }, body: refundBody }, config: { noStore: true, audit: { action: 'billing.invoice.refund' } } },
    async (request) => {
      const admin = requireAdmin(app, request);
      const reason = checkedReason(request.body.reason);
      const refunded = await db.tx(async (tx) => {
        const invoice = await selectInvoiceByNumber(tx, request.params.number, true);
        if (!invoice) throw new NotFoundError(INVOICE_NOT_FOUND_MESSAGE);
        const bundle = invoice.kind === 'credits' ? await selectBundleOfInvoice(tx, invoice.invoice_number) : undefined;
        return refund(app, tx, admin, { bundle, invoice, reason });
      });
      request.log.info({ administratorId: admin.userId, invoice: refunded.invoice_number, amountCents: refunded.total_in_cents }, 'invoice refunded');
      request.auditTargets = [{ resource: 'organization', ids: [refunded.organization] }];
      return invoiceInfo(refunded);
    },
  );
}

function checkedReason(reason: string): string {
  const problem = adminReasonProblem(reason);
  if (problem) throw new BadRequestError(problem);
  return reason.trim();
}

/**
 * A full refund, in the caller's transaction with the invoice (and the bundle it bills) locked:
 * the rules of the model first, then the invoice becomes `refunded`, a credits bundle
 * `refunded` with its credits removed, the log records it, and last the money goes back
 * through the provider that took it (an error there rolls everything back). An invoice the
 * provider did not charge (paid by bank transfer, marked paid by an administrator) is refunded
 * outside the provider, as the manual provider does: the operator sends the money back.
 */
async function refund(
  app: FastifyInstance,
  tx: Db,
  admin: Administrator,
  target: { bundle: BundleForRefund | undefined; invoice: InvoiceRow | undefined; reason: string },
): Promise<InvoiceRow> {
  const { bundle, invoice, reason } = target;
  if (bundle) {
    const problem = bundleRefundProblem({ ...bundle, invoice_state: invoice?.state ?? null });
    if (problem) throw new BadRequestError(problem);
  }
  if (!invoice) throw new BadRequestError(ADMIN_CREDIT_MESSAGES.notPaid);
  const problem = invoiceRefundProblem(invoice);
  if (problem) throw new BadRequestError(problem);

  const at = new Date(app.context.clock());
  const provider = paymentProviderOf(app.context);
  const reference = invoice.provider_reference;
  const throughProvider = provider.kind !== 'manual' && invoice.provider === provider.kind && reference !== null && !reference.startsWith('marked paid');
  await markInvoiceRefunded(tx, invoice.id, at);
  if (bundle) await markBundleRefunded(tx, bundle.id);
  await insertAdjustment(tx, {
    kind: 'refund',
    at,
    organization: invoice.organization,
    organizationName: (await selectOrganizationName(tx, invoice.organization)) ?? '',
    administrator: admin.userId,
    administratorUsername: await selectUsername(tx, admin.userId),
    creditBundle: bundle?.id ?? null,
    invoiceNumber: invoice.invoice_number,
    quantity: bundle ? bundle.original_quantity : null,
    amountCents: invoice.total_in_cents,
    refundedThrough: throughProvider ? provider.kind : 'manual',
    reason,
  });
  if (throughProvider) {
    const customer = await selectBillingCustomer(tx, invoice.organization);
    if (!customer) throw new NotFoundError('Organization not found');
    await provider.refund(customer, reference, invoice.total_in_cents);
  } else if (provider.kind === 'manual') {
    const customer = await selectBillingCustomer(tx, invoice.organization);
    if (customer) await provider.refund(customer, reference ?? `manual:${invoice.invoice_number}`, invoice.total_in_cents);
  }
  return { ...invoice, state: 'refunded' };
}
