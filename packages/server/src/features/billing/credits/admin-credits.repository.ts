import { COUNTED_CREDIT_STATUSES, type CreditAdjustment } from '@flotilla/model';
import type { Db } from '../../../infra/db/db.js';

/**
 * Issue 18 (admin credits): the hand-written SQL of complimentary grants, refunds and their log
 * (`credit_adjustment`, migration 0039).
 */

/** `%` and `_` in a name the administrator typed match themselves. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface AdminOrganizationRow {
  id: number;
  name: string;
  handle: string;
  plan_code: string | null;
  plan_title: string | null;
  credit_balance: number;
}

/** Organizations whose name or handle contains `search` (every one without it), by name, with plan and balance. */
export async function selectOrganizationsWithCredits(db: Db, search: string | undefined, limit: number, offset: number, now: Date): Promise<{ rows: AdminOrganizationRow[]; total: number }> {
  const { rows } = await db.query<AdminOrganizationRow & { total: string; credit_balance: string }>(
    `SELECT o.id, o.name, o.handle, p.billing_code AS plan_code, p.title AS plan_title,
            COALESCE((SELECT sum(b.available_balance) FROM credit_bundle b
                       WHERE b.belongs_to__organization = o.id AND b.payment_status = ANY($4) AND b.expires_on__date > $5), 0) AS credit_balance,
            count(*) OVER () AS total
       FROM organization o
       LEFT JOIN subscription s ON s.is_for__organization = o.id AND s.is_active
       LEFT JOIN plan p ON p.id = s.is_for__plan
      WHERE ($1::text IS NULL OR o.name ILIKE $1 OR o.handle ILIKE $1)
      ORDER BY lower(o.name), o.id
      LIMIT $2 OFFSET $3`,
    [search ? likePattern(search) : null, limit, offset, COUNTED_CREDIT_STATUSES, now],
  );
  return { rows: rows.map(({ total: _t, ...r }) => ({ ...r, credit_balance: Number(r.credit_balance) })), total: rows[0] ? Number(rows[0].total) : 0 };
}

export interface AdminBundleRow {
  id: number;
  created_at: Date;
  organization: { id: number; name: string; handle: string };
  original_quantity: number;
  payment_status: string;
  unit_cost: number;
  total_cost: number;
  total_balance: number;
  available_balance: number;
  expires_on__date: Date;
  created_by: string | null;
  invoice: { number: string; state: string; total_in_cents: number } | null;
}

/** Credit bundles, newest first: of one organization, or of those whose name contains `name`. */
export async function selectBundles(
  db: Db,
  filter: { organizationId?: number | undefined; name?: string | undefined },
  limit: number,
  offset: number,
): Promise<{ rows: AdminBundleRow[]; total: number }> {
  const { rows } = await db.query<AdminBundleRow & { total: string }>(
    `SELECT b.id, b.created_at, json_build_object('id', o.id, 'name', o.name, 'handle', o.handle) AS organization,
            b.original_quantity, b.payment_status, b.unit_cost, b.total_cost, b.total_balance, b.available_balance, b.expires_on__date,
            u.username AS created_by,
            CASE WHEN i.id IS NULL THEN NULL ELSE json_build_object('number', i.invoice_number, 'state', i.state, 'total_in_cents', i.total_in_cents) END AS invoice,
            count(*) OVER () AS total
       FROM credit_bundle b
       JOIN organization o ON o.id = b.belongs_to__organization
       LEFT JOIN "user" u ON u.id = b.is_created_by__user
       LEFT JOIN invoice i ON i.invoice_number = b.is_associated_with__invoice_id
      WHERE ($1::integer IS NULL OR o.id = $1) AND ($2::text IS NULL OR o.name ILIKE $2)
      ORDER BY b.created_at DESC, b.id DESC
      LIMIT $3 OFFSET $4`,
    [filter.organizationId ?? null, filter.name ? likePattern(filter.name) : null, limit, offset],
  );
  return { rows: rows.map(({ total: _t, ...r }) => r), total: rows[0] ? Number(rows[0].total) : 0 };
}

export async function selectOrganizationForGrant(db: Db, id: number): Promise<{ id: number; name: string } | undefined> {
  const { rows } = await db.query<{ id: number; name: string }>('SELECT id, name FROM organization WHERE id = $1 FOR UPDATE', [id]);
  return rows[0];
}

export async function selectUsername(db: Db, userId: number): Promise<string> {
  const { rows } = await db.query<{ username: string }>('SELECT username FROM "user" WHERE id = $1', [userId]);
  return rows[0]?.username ?? `user ${userId}`;
}

export async function selectFeatureIdBySlug(db: Db, slug: string): Promise<number | undefined> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM feature WHERE slug = $1', [slug]);
  return rows[0]?.id;
}

export interface GrantedBundle {
  id: number;
  created_at: Date;
  belongs_to__organization: number;
  original_quantity: number;
  payment_status: string;
  total_balance: number;
  available_balance: number;
  expires_on__date: Date;
}

/** A complimentary bundle: free, nothing charged, no invoice, the credits available at once. */
export async function insertComplimentaryBundle(
  db: Db,
  input: { organization: number; feature: number; quantity: number; administrator: number; expires: Date },
): Promise<GrantedBundle> {
  const { rows } = await db.query<GrantedBundle>(
    `INSERT INTO credit_bundle (belongs_to__organization, is_for__feature, original_quantity, is_created_by__user, payment_status,
                                unit_cost, total_cost, total_balance, available_balance, expires_on__date)
     VALUES ($1, $2, $3, $4, 'complimentary', 0, 0, $3, $3, $5)
     RETURNING id, created_at, belongs_to__organization, original_quantity, payment_status, total_balance, available_balance, expires_on__date`,
    [input.organization, input.feature, input.quantity, input.administrator, input.expires],
  );
  return rows[0]!;
}

export interface BundleForRefund {
  id: number;
  belongs_to__organization: number;
  payment_status: string;
  original_quantity: number;
  available_balance: number;
  is_associated_with__invoice_id: string | null;
}

const BUNDLE_FOR_REFUND = 'id, belongs_to__organization, payment_status, original_quantity, available_balance, is_associated_with__invoice_id';

/** The bundle, locked for the refund (spending credits locks bundles the same way). */
export async function selectBundleForRefund(db: Db, id: number): Promise<BundleForRefund | undefined> {
  const { rows } = await db.query<BundleForRefund>(`SELECT ${BUNDLE_FOR_REFUND} FROM credit_bundle WHERE id = $1 FOR UPDATE`, [id]);
  return rows[0];
}

/** The bundle a credits invoice bills, locked. */
export async function selectBundleOfInvoice(db: Db, invoiceNumber: string): Promise<BundleForRefund | undefined> {
  const { rows } = await db.query<BundleForRefund>(`SELECT ${BUNDLE_FOR_REFUND} FROM credit_bundle WHERE is_associated_with__invoice_id = $1 FOR UPDATE`, [invoiceNumber]);
  return rows[0];
}

/** A refunded bundle: no longer counted, its credits gone. */
export async function markBundleRefunded(db: Db, id: number): Promise<void> {
  await db.query(`UPDATE credit_bundle SET payment_status = 'refunded', total_balance = 0, available_balance = 0, modified_at = now() WHERE id = $1`, [id]);
}

export async function markInvoiceRefunded(db: Db, id: number, at: Date): Promise<void> {
  await db.query(`UPDATE invoice SET state = 'refunded', refunded_at = $2 WHERE id = $1`, [id, at]);
}

export interface AdjustmentInput {
  kind: 'grant' | 'refund';
  at: Date;
  organization: number;
  organizationName: string;
  administrator: number;
  administratorUsername: string;
  creditBundle: number | null;
  invoiceNumber: string | null;
  quantity: number | null;
  amountCents: number;
  refundedThrough: 'manual' | 'stripe' | null;
  reason: string;
}

export async function insertAdjustment(db: Db, a: AdjustmentInput): Promise<void> {
  await db.query(
    `INSERT INTO credit_adjustment (created_at, kind, organization, organization_name, administrator, administrator_username, credit_bundle,
                                    invoice_number, quantity, amount_cents, refunded_through, reason)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [a.at, a.kind, a.organization, a.organizationName, a.administrator, a.administratorUsername, a.creditBundle, a.invoiceNumber, a.quantity, a.amountCents, a.refundedThrough, a.reason],
  );
}

/** The log of grants and refunds, newest first (of one organization, or all). */
export async function selectAdjustments(db: Db, organizationId: number | undefined, limit: number, offset: number): Promise<{ rows: CreditAdjustment[]; total: number }> {
  const { rows } = await db.query<{
    id: number;
    created_at: Date;
    kind: 'grant' | 'refund';
    organization: number | null;
    organization_name: string;
    handle: string | null;
    administrator: number | null;
    administrator_username: string;
    credit_bundle: number | null;
    invoice_number: string | null;
    quantity: number | null;
    amount_cents: number;
    refunded_through: 'manual' | 'stripe' | null;
    reason: string;
    total: string;
  }>(
    `SELECT a.*, o.handle, count(*) OVER () AS total
       FROM credit_adjustment a LEFT JOIN organization o ON o.id = a.organization
      WHERE ($1::integer IS NULL OR a.organization = $1)
      ORDER BY a.created_at DESC, a.id DESC
      LIMIT $2 OFFSET $3`,
    [organizationId ?? null, limit, offset],
  );
  return {
    total: rows[0] ? Number(rows[0].total) : 0,
    rows: rows.map((r) => ({
      id: r.id,
      created_at: r.created_at.toISOString(),
      kind: r.kind,
      organization: { id: r.organization, name: r.organization_name, handle: r.handle },
      administrator: { id: r.administrator, username: r.administrator_username },
      credit_bundle: r.credit_bundle,
      invoice_number: r.invoice_number,
      quantity: r.quantity,
      amount_cents: r.amount_cents,
      refunded_through: r.refunded_through,
      reason: r.reason,
    })),
  };
}
