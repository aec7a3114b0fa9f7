import { formatCents, type Catalogue } from '@flotilla/model';
import type { InvoiceLineRow, InvoiceRow } from './invoice.repository.js';

/** What an invoice PDF prints besides the invoice itself. */
export interface InvoicePdfContext {
  /** The operator's legal details (the catalogue's `seller`). */
  seller: Catalogue['seller'] | undefined;
  /** How to pay (the manual provider's instructions), printed on unpaid invoices. */
  paymentInstructions?: string | undefined;
}

const STATE_LABELS: Record<string, string> = {
  draft: 'Draft',
  open: 'Open',
  pending: 'Pending',
  processing: 'Processing',
  paid: 'Paid',
  past_due: 'Past due',
  failed: 'Payment failed',
  voided: 'Voided',
  void: 'Void',
  closed: 'Closed',
};

const day = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : '-');
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/**
 * The invoice as a PDF (A4, the standard Helvetica fonts, no embedded files): the seller's
 * legal details, who it is billed to (as it was when issued), number, dates, state, the lines
 * and the total, and for an unpaid invoice the payment instructions.
 */
export async function renderInvoicePdf(invoice: InvoiceRow, lines: readonly InvoiceLineRow[], ctx: InvoicePdfContext): Promise<Buffer> {
  // Loaded on the first invoice, not at start: pdfkit and its fonts are a tenth of the server's start-up.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `Invoice ${invoice.invoice_number}`, Author: ctx.seller?.name ?? 'Flotilla' } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve());
    doc.on('error', reject);
  });
  const money = (cents: number) => `${formatCents(cents)} ${invoice.currency.toUpperCase()}`;

  doc.font('Helvetica-Bold').fontSize(20).text(`Invoice ${invoice.invoice_number}`);
  doc.moveDown(0.5);
  doc.font('Helvetica').fontSize(10);
  const seller = ctx.seller;
  if (seller) {
    doc.font('Helvetica-Bold').text(seller.name).font('Helvetica');
    for (const l of seller.address) doc.text(l);
    if (seller.email) doc.text(seller.email);
    if (seller.vatNumber) doc.text(`VAT number: ${seller.vatNumber}`);
  }
  doc.moveDown();

  const to = invoice.billed_to;
  doc.font('Helvetica-Bold').text('Billed to').font('Helvetica');
  const company = str(to.company) ?? str(to.organization);
  if (company) doc.text(company);
  if (str(to.full_name)) doc.text(str(to.full_name)!);
  for (const l of strings(to.address)) doc.text(l);
  if (str(to.vat_number)) doc.text(`VAT number: ${str(to.vat_number)}`);
  if (str(to.email)) doc.text(str(to.email)!);
  doc.moveDown();

  doc.text(`Invoice number: ${invoice.invoice_number}`);
  doc.text(`Issued: ${day(invoice.issued_at ?? invoice.created_at)}`);
  doc.text(`Due: ${day(invoice.due_on)}`);
  if (invoice.period_start && invoice.period_end) doc.text(`Period: ${day(invoice.period_start)} to ${day(invoice.period_end)}`);
  doc.text(`State: ${STATE_LABELS[invoice.state] ?? invoice.state}${invoice.state === 'paid' && invoice.paid_at ? ` (${day(invoice.paid_at)})` : ''}`);
  doc.moveDown();

  // The lines, one row each: description, quantity, unit price, amount.
  const cols = { description: 50, quantity: 320, unit: 380, amount: 470 };
  const header = doc.y;
  doc.font('Helvetica-Bold');
  doc.text('Description', cols.description, header, { width: 260 });
  doc.text('Qty', cols.quantity, header, { width: 50, align: 'right' });
  doc.text('Unit price', cols.unit, header, { width: 80, align: 'right' });
  doc.text('Amount', cols.amount, header, { width: 75, align: 'right' });
  doc.font('Helvetica');
  doc.moveDown(0.5);
  for (const l of lines) {
    const y = doc.y;
    doc.text(l.description, cols.description, y, { width: 260 });
    const after = doc.y;
    doc.text(String(l.quantity), cols.quantity, y, { width: 50, align: 'right' });
    doc.text(formatCents(l.unit_cost_cents), cols.unit, y, { width: 80, align: 'right' });
    doc.text(formatCents(l.amount_cents), cols.amount, y, { width: 75, align: 'right' });
    doc.y = Math.max(after, doc.y);
    doc.moveDown(0.3);
  }
  doc.moveDown(0.5);
  doc.font('Helvetica-Bold').text(`Total: ${money(invoice.total_in_cents)}`, cols.description, doc.y, { width: 495, align: 'right' });
  doc.font('Helvetica');

  const unpaid = !['paid', 'voided', 'void', 'closed', 'refunded'].includes(invoice.state);
  if (unpaid && ctx.paymentInstructions) {
    doc.moveDown();
    doc.font('Helvetica-Bold').text('How to pay', 50).font('Helvetica');
    doc.text(ctx.paymentInstructions, 50, doc.y, { width: 495 });
    doc.text(`Please quote ${invoice.invoice_number} with your payment.`);
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}
