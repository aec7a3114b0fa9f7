import type { FastifyInstance } from 'fastify';
import { DEFAULT_CATALOGUE, canDownloadInvoice } from '@flotilla/model';
import { BadRequestError, ConflictError, NotFoundError } from '../../../infra/errors.js';
import { EMPTY_BODY } from '../../../infra/http/schemas.js';
import { requireBillingAccess, requireBillingOn, requirePlatformAdministrator } from '../access.js';
import { markInvoicePaid, selectInvoiceByNumber, selectInvoiceLines, selectInvoiceOf, selectInvoicesOf, selectUnpaidInvoices, UNPAID_STATES, type InvoiceRow } from './invoice.repository.js';
import { paymentInstructions } from './invoice-mail.js';
import { renderInvoicePdf } from './invoice-pdf.js';
import { recomputePastDue } from './past-due.js';

/** Spec 3 §4: a draft invoice cannot be downloaded. */
export const INVOICE_NOT_AVAILABLE_MESSAGE = 'This invoice is not yet available for download';
export const INVOICE_NOT_FOUND_MESSAGE = 'Invoice not found';
/** The most invoices one list answers (the billing page shows 6, "view all" the rest). */
export const MAX_INVOICES_LISTED = 500;
export const ADMIN_INVOICE_PAGE_MAX = 100;

const orgParams = { type: 'object', required: ['org'], properties: { org: { type: 'integer', minimum: 1, maximum: 2147483647 } } } as const;
const INVOICE_NUMBER = { type: 'string', minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9_-]+$' } as const;
const invoiceParams = { type: 'object', required: ['org', 'number'], properties: { org: orgParams.properties.org, number: INVOICE_NUMBER } } as const;

/** balena-sdk's InvoiceInfo (money in cents, as strings). */
export function invoiceInfo(i: InvoiceRow) {
  return {
    invoice_number: i.invoice_number,
    uuid: i.uuid,
    created_at: (i.issued_at ?? i.created_at).toISOString(),
    due_on: i.due_on?.toISOString() ?? null,
    closed_at: i.paid_at?.toISOString() ?? null,
    currency: i.currency.toUpperCase(),
    subtotal_in_cents: String(i.total_in_cents),
    total_in_cents: String(i.total_in_cents),
    state: i.state,
  };
}

const invoiceInfoSchema = {
  type: 'object',
  properties: {
    invoice_number: { type: 'string' },
    uuid: { type: 'string' },
    created_at: { type: 'string' },
    due_on: { type: ['string', 'null'] },
    closed_at: { type: ['string', 'null'] },
    currency: { type: 'string' },
    subtotal_in_cents: { type: 'string' },
    total_in_cents: { type: 'string' },
    state: { type: 'string' },
  },
} as const;

export async function invoiceRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.context;

  app.get<{ Params: { org: number } }>(
    '/billing/v1/account/:org/invoices',
    { schema: { params: orgParams, response: { 200: { type: 'array', items: invoiceInfoSchema } } }, config: { noStore: true } },
    async (request) => {
      await requireBillingAccess(app, request, request.params.org);
      return (await selectInvoicesOf(db, request.params.org, MAX_INVOICES_LISTED)).map(invoiceInfo);
    },
  );

  app.get<{ Params: { org: number; number: string } }>(
    '/billing/v1/account/:org/invoices/:number/download',
    { schema: { params: invoiceParams }, config: { noStore: true } },
    async (request, reply) => {
      await requireBillingAccess(app, request, request.params.org);
      const invoice = await selectInvoiceOf(db, request.params.org, request.params.number);
      if (!invoice) throw new NotFoundError(INVOICE_NOT_FOUND_MESSAGE);
      if (!canDownloadInvoice(invoice.state)) throw new ConflictError(INVOICE_NOT_AVAILABLE_MESSAGE);
      const pdf = await renderInvoicePdf(invoice, await selectInvoiceLines(db, invoice.id), {
        seller: (app.context.config.billing?.catalogue ?? DEFAULT_CATALOGUE).seller,
        paymentInstructions: paymentInstructions(app),
      });
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="invoice-${invoice.invoice_number}.pdf"`)
        .send(pdf);
    },
  );

  // Platform administrators: every organization's unpaid invoices, paged (the /admin "Invoices" section).
  app.get<{ Querystring: { limit?: number; offset?: number } }>(
    '/admin/v1/billing/invoices',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: { limit: { type: 'integer', minimum: 1, maximum: ADMIN_INVOICE_PAGE_MAX }, offset: { type: 'integer', minimum: 0, maximum: 1_000_000 } },
        },
      },
      config: { noStore: true },
    },
    async (request) => {
      requireBillingOn(app);
      requirePlatformAdministrator(request);
      const { rows, total } = await selectUnpaidInvoices(db, request.query.limit ?? 25, request.query.offset ?? 0);
      return {
        total,
        invoices: rows.map((r) => ({ ...invoiceInfo(r), organization: { id: r.organization, name: r.organization_name, handle: r.organization_handle } })),
      };
    },
  );

  app.post<{ Params: { number: string } }>(
    '/admin/v1/billing/invoices/:number/mark-paid',
    // The invoice's organization is named by the handler (invoices are not a data-API resource).
    { schema: { params: { type: 'object', required: ['number'], properties: { number: INVOICE_NUMBER } }, body: EMPTY_BODY }, config: { noStore: true, audit: { action: 'billing.invoice.mark_paid' } } },
    async (request) => {
      requireBillingOn(app);
      const admin = requirePlatformAdministrator(request);
      const paid = await db.tx(async (tx) => {
        const invoice = await selectInvoiceByNumber(tx, request.params.number, true);
        if (!invoice) throw new NotFoundError(INVOICE_NOT_FOUND_MESSAGE);
        if (!(UNPAID_STATES as readonly string[]).includes(invoice.state)) {
          throw new BadRequestError(invoice.state === 'paid' ? 'This invoice is already paid' : `A ${invoice.state} invoice cannot be marked paid`);
        }
        const row = await markInvoicePaid(tx, invoice.id, new Date(app.context.clock()), `marked paid by administrator ${admin.userId}`);
        await recomputePastDue(app, tx, [invoice.organization]);
        return row;
      });
      request.log.info({ administratorId: admin.userId, invoice: paid.invoice_number, organization: paid.organization }, 'invoice marked paid');
      request.auditTargets = [{ resource: 'organization', ids: [paid.organization] }];
      return invoiceInfo(paid);
    },
  );
}
