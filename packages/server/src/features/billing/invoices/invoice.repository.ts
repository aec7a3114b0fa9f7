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

/** States of an invoice that still waits for its money (past due once `due_on` passes). */
export const UNPAID_STATES = ['open', 'pending', 'processing', 'failed', 'past_due'] as const;

/** An organization's invoices, newest first (drafts included: the list shows them, the download refuses them). */
export async function selectInvoicesOf(db: Db, organization: number, limit: number): Promise<InvoiceRow[]> {
  const { rows } = await db.query<InvoiceRow>('SELECT * FROM invoice WHERE organization = $1 ORDER BY created_at DESC, id DESC LIMIT $2', [organization, limit]);
  return rows;
}

/** One invoice of the organization by number (undefined: none, or another organization's). */
export async function selectInvoiceOf(db: Db, organization: number, invoiceNumber: string): Promise<InvoiceRow | undefined> {
  const { rows } = await db.query<InvoiceRow>('SELECT * FROM invoice WHERE organization = $1 AND invoice_number = $2', [organization, invoiceNumber]);
  return rows[0];
}

export async function selectInvoiceByNumber(db: Db, invoiceNumber: string, lock = false): Promise<InvoiceRow | undefined> {
  const { rows } = await db.query<InvoiceRow>(`SELECT * FROM invoice WHERE invoice_number = $1${lock ? ' FOR UPDATE' : ''}`, [invoiceNumber]);
  return rows[0];
}

/** Records a payment: state paid, paid_at. */
export async function markInvoicePaid(db: Db, id: number, paidAt: Date, reference?: string): Promise<InvoiceRow> {
  const { rows } = await db.query<InvoiceRow>(
    `UPDATE invoice SET state = 'paid', paid_at = $2, failure_message = NULL, provider_reference = COALESCE($3, provider_reference) WHERE id = $1 RETURNING *`,
    [id, paidAt, reference ?? null],
  );
  return rows[0]!;
}

/** A charge's outcome on its invoice. */
export async function updateInvoiceCharge(
  db: Db,
  id: number,
  outcome: { state: InvoiceState; reference?: string | null; failureMessage?: string | null; paidAt?: Date | null },
): Promise<void> {
  await db.query('UPDATE invoice SET state = $2, provider_reference = COALESCE($3, provider_reference), failure_message = $4, paid_at = COALESCE($5, paid_at) WHERE id = $1', [
    id,
    outcome.state,
    outcome.reference ?? null,
    outcome.failureMessage ?? null,
    outcome.paidAt ?? null,
  ]);
}

export interface AdminInvoiceRow extends InvoiceRow {
  organization_name: string;
  organization_handle: string;
}

/** Every organization's unpaid invoices (the /admin "Invoices" section), oldest due first, paged. */
export async function selectUnpaidInvoices(db: Db, limit: number, offset: number): Promise<{ rows: AdminInvoiceRow[]; total: number }> {
  const { rows } = await db.query<AdminInvoiceRow & { total: string }>(
    `SELECT i.*, o.name AS organization_name, o.handle AS organization_handle, count(*) OVER () AS total
       FROM invoice i JOIN organization o ON o.id = i.organization
      WHERE i.state = ANY($1::text[])
      ORDER BY i.due_on ASC NULLS LAST, i.id ASC
      LIMIT $2 OFFSET $3`,
    [UNPAID_STATES, limit, offset],
  );
  const total = rows[0] ? Number(rows[0].total) : offset > 0 ? (await db.query<{ n: string }>('SELECT count(*) AS n FROM invoice WHERE state = ANY($1::text[])', [UNPAID_STATES])).rows[0]!.n : 0;
  return { rows: rows.map(({ total: _t, ...r }) => r), total: Number(total) };
}

/**
 * Who an invoice is to, as it is now (kept on the invoice when it is issued): the billing
 * address of the billing account, else the organization's company name, and the billing email.
 */
export async function selectBilledTo(db: Db, organization: number): Promise<Record<string, unknown>> {
  const { rows } = await db.query<{ name: string; company_name: string | null; email: string | null; billing_info: Record<string, unknown> | null }>(
    `SELECT o.name, o.company_name, b.email, b.billing_info FROM organization o LEFT JOIN billing_account b ON b.organization = o.id WHERE o.id = $1`,
    [organization],
  );
  const row = rows[0];
  if (!row) return {};
  const info = row.billing_info ?? {};
  const text = (k: string) => (typeof info[k] === 'string' && (info[k] as string).trim() !== '' ? (info[k] as string) : null);
  return {
    organization: row.name,
    company: text('company') ?? row.company_name ?? null,
    full_name: text('full_name'),
    address: [text('address1'), text('address2'), [text('zip'), text('city')].filter(Boolean).join(' ') || null, text('state'), text('country')].filter((l): l is string => l !== null),
    vat_number: text('vat_number'),
    email: row.email,
  };
}

/** Where an organization's invoice mail goes: the billing email and cc emails, else its administrators. */
export async function selectInvoiceRecipients(db: Db, organization: number): Promise<string[]> {
  const { rows } = await db.query<{ email: string | null; cc_emails: string[] }>('SELECT email, cc_emails FROM billing_account WHERE organization = $1', [organization]);
  const account = rows[0];
  const listed = [account?.email, ...(account?.cc_emails ?? [])].filter((e): e is string => typeof e === 'string' && e.trim() !== '');
  if (listed.length > 0) return [...new Set(listed)];
  const admins = await db.query<{ email: string }>(
    `SELECT u.email FROM organization_membership m
       JOIN organization_membership_role r ON r.id = m.organization_membership_role AND r.name = 'administrator'
       JOIN "user" u ON u.id = m."user"
      WHERE m.is_member_of__organization = $1 AND u.email IS NOT NULL ORDER BY m.id LIMIT 20`,
    [organization],
  );
  return [...new Set(admins.rows.map((r) => r.email))];
}

export async function selectOrganizationName(db: Db, organization: number): Promise<string | undefined> {
  const { rows } = await db.query<{ name: string }>('SELECT name FROM organization WHERE id = $1', [organization]);
  return rows[0]?.name;
}

export async function selectInvoiceById(db: Db, id: number): Promise<InvoiceRow | undefined> {
  const { rows } = await db.query<InvoiceRow>('SELECT * FROM invoice WHERE id = $1', [id]);
  return rows[0];
}

/** Unpaid invoices whose due date has passed become past due (`only`: these organizations). */
export async function markInvoicesPastDue(db: Db, now: Date, only: readonly number[] | null): Promise<void> {
  await db.query(
    `UPDATE invoice SET state = 'past_due'
      WHERE state IN ('open', 'pending', 'processing') AND due_on < $1 AND ($2::integer[] IS NULL OR organization = ANY($2::integer[]))`,
    [now, only],
  );
}

export interface PastDueCandidate {
  id: number;
  /** The due date of the oldest unpaid past-due invoice (null: none). */
  since: Date | null;
  was_since: Date | null;
  was_frozen: boolean;
}

/** Organizations with an unpaid past-due invoice, and those still marked past due or frozen. */
export async function selectPastDueCandidates(db: Db, now: Date, only: readonly number[] | null): Promise<PastDueCandidate[]> {
  const { rows } = await db.query<PastDueCandidate>(
    `SELECT o.id, d.since, o.has_past_due_invoice_since__date AS was_since, o.is_frozen AS was_frozen
       FROM organization o
       LEFT JOIN (SELECT organization, min(due_on) AS since FROM invoice
                   WHERE state = ANY($3::text[]) AND due_on < $1 GROUP BY organization) d ON d.organization = o.id
      WHERE ($2::integer[] IS NULL OR o.id = ANY($2::integer[]))
        AND (d.since IS NOT NULL OR o.has_past_due_invoice_since__date IS NOT NULL OR o.is_frozen)`,
    [now, only, UNPAID_STATES],
  );
  return rows;
}

export async function updateOrganizationPastDue(db: Db, organization: number, since: Date | null, frozen: boolean): Promise<void> {
  await db.query('UPDATE organization SET has_past_due_invoice_since__date = $2, is_frozen = $3 WHERE id = $1', [organization, since, frozen]);
}
