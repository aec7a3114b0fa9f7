import type { FastifyInstance } from 'fastify';
import { formatCents } from '@flotilla/model';
import type { AppConfig, AppContext } from '../../../infra/app/context.js';
import type { Db } from '../../../infra/db/db.js';
import { invoiceIssued } from '../../../infra/mail/templates.js';
import { selectInvoiceRecipients, selectOrganizationName, type InvoiceRow } from './invoice.repository.js';

/** The manual provider's payment instructions (printed on invoices and in their mail). */
export function paymentInstructions(app: FastifyInstance | { config: AppConfig }): string | undefined {
  const config = 'context' in app ? app.context.config : app.config;
  const provider = config.billing?.provider;
  return provider === undefined || provider.kind === 'manual' ? provider?.instructions : undefined;
}

/**
 * Issue 18 item 4: an issued (non-draft) invoice is mailed to the billing account's email and
 * cc emails, else to the organization's administrators: its number, total, due date and a link
 * to the billing page where the PDF is downloaded. Queued through `db` (call it in the
 * transaction that wrote the invoice, with its state after the charge): the mail goes once that
 * commits, by the durable mail job. Every slice that issues an invoice calls this (a FastifyInstance
 * or, from a data API rule, the AppContext). Returns how many mails were queued.
 */
export async function issueInvoiceMail(app: FastifyInstance | AppContext, db: Db, invoice: InvoiceRow): Promise<number> {
  const context = 'context' in app ? app.context : app;
  if (invoice.state === 'draft') return 0;
  const organizationName = (await selectOrganizationName(db, invoice.organization)) ?? '';
  const recipients = await selectInvoiceRecipients(db, invoice.organization);
  const paid = invoice.state === 'paid';
  const mail = invoiceIssued({
    organizationName,
    invoiceNumber: invoice.invoice_number,
    total: `${formatCents(invoice.total_in_cents)} ${invoice.currency.toUpperCase()}`,
    paid,
    dueOn: invoice.due_on ? invoice.due_on.toISOString().slice(0, 10) : null,
    billingUrl: context.mailer.publicLink(`/orgs/${invoice.organization}/billing`),
    paymentInstructions: paymentInstructions(context),
  });
  for (const to of recipients) await context.mailer.queue(db, { to, ...mail });
  return recipients.length;
}
