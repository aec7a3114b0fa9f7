import type { InvoiceState } from '@flotilla/model';
import type { Db } from '../../../infra/db/db.js';

/** Issue 18: the invoice tables (migration 0033). Amounts in cents. */

export interface InvoiceLineInput {
  code: string;
  description: string;
  quantity: number;
  unitCostCents: number;
}

export interface InvoiceInput {
  organization: number;
  kind: 'subscription' | 'period' | 'credits' | 'fee';
  state: InvoiceState;
  lines: readonly InvoiceLineInput[];
  issuedAt?: Date | null;
  dueOn?: Date | null;
  periodStart?: Date | null;
  periodEnd?: Date | null;
  provider?: string | null;
  billedTo?: Record<string, unknown>;
}

export interface InvoiceRow {
  id: number;
  organization: number;
  invoice_number: string;
  uuid: string;
  kind: string;
  state: InvoiceState;
  created_at: Date;
  issued_at: Date | null;
  due_on: Date | null;
  paid_at: Date | null;
  period_start: Date | null;
  period_end: Date | null;
  total_in_cents: number;
  currency: string;
  provider: string | null;
  provider_reference: string | null;
  failure_message: string | null;
  billed_to: Record<string, unknown>;
}

/**
 * Writes an invoice and its lines (amount = quantity × unit cost; total = their sum) with the
 * next number of the server's sequence, `FLT-000001`. Run it in the transaction of the change
 * it bills, so a failed change leaves no invoice.
 */
export async function insertInvoice(db: Db, input: InvoiceInput): Promise<InvoiceRow> {
  for (const l of input.lines) {
    if (!Number.isInteger(l.quantity) || l.quantity < 0 || !Number.isInteger(l.unitCostCents) || l.unitCostCents < 0) {
      throw new Error(`invoice line ${l.code}: quantity and unit cost must be non-negative integers`);
    }
  }
  const total = input.lines.reduce((sum, l) => sum + l.quantity * l.unitCostCents, 0);
  const { rows } = await db.query<InvoiceRow>(
    `INSERT INTO invoice (organization, invoice_number, kind, state, issued_at, due_on, period_start, period_end, total_in_cents, provider, billed_to)
     VALUES ($1, 'FLT-' || lpad(nextval('invoice_number_seq')::text, 6, '0'), $2, $3, $4, $5, $6, $7, $8, $9, $10)
     RETURNING *`,
    [input.organization, input.kind, input.state, input.issuedAt ?? null, input.dueOn ?? null, input.periodStart ?? null, input.periodEnd ?? null, total, input.provider ?? null, input.billedTo ?? {}],
  );
  const invoice = rows[0]!;
  for (const [i, l] of input.lines.entries()) {
    await db.query(
      `INSERT INTO invoice_line (invoice, position, code, description, quantity, unit_cost_cents, amount_cents) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [invoice.id, i + 1, l.code, l.description, l.quantity, l.unitCostCents, l.quantity * l.unitCostCents],
    );
  }
  return invoice;
}

export interface InvoiceLineRow {
  position: number;
  code: string;
  description: string;
  quantity: number;
  unit_cost_cents: number;
  amount_cents: number;
}

export async function selectInvoiceLines(db: Db, invoiceId: number): Promise<InvoiceLineRow[]> {
  const { rows } = await db.query<InvoiceLineRow>(
    'SELECT position, code, description, quantity, unit_cost_cents, amount_cents FROM invoice_line WHERE invoice = $1 ORDER BY position',
    [invoiceId],
  );
  return rows;
}
