import { CAPABILITIES, COUNTED_CREDIT_STATUSES, type CreditBundleStatus, type InvoiceState } from '@flotilla/model';
import type { Db } from '../../../infra/db/db.js';

/** Issue 18 item 7: the credits feature's hand-written SQL. */

/** The organization's active plan as credits see it: whether it includes credits and the price of one. */
export interface CreditPlan {
  code: string;
  title: string;
  includesCredits: boolean;
  /** Cents per credit (the plan's `credits:device` add-on), null when it sells none. */
  unitCents: number | null;
}

export async function selectCreditPlan(db: Db, organization: number): Promise<CreditPlan | undefined> {
  const { rows } = await db.query<{ code: string; title: string; includes: boolean; unit: number | null }>(
    `SELECT p.billing_code AS code, p.title,
            EXISTS (SELECT 1 FROM plan_feature pf JOIN feature f ON f.id = pf.feature WHERE pf.plan = p.id AND f.slug = $2 AND pf.quantity > 0) AS includes,
            (SELECT pa.base_price FROM plan_addon pa JOIN feature f ON f.id = pa.feature WHERE pa.plan = p.id AND f.slug = $2) AS unit
       FROM subscription s JOIN plan p ON p.id = s.is_for__plan
      WHERE s.is_for__organization = $1 AND s.is_active`,
    [organization, CAPABILITIES.credits],
  );
  const row = rows[0];
  return row ? { code: row.code, title: row.title, includesCredits: row.includes, unitCents: row.unit } : undefined;
}

export async function selectFeatureSlug(db: Db, featureId: number): Promise<string | undefined> {
  const { rows } = await db.query<{ slug: string }>('SELECT slug FROM feature WHERE id = $1', [featureId]);
  return rows[0]?.slug;
}

export async function selectUserIdOfActor(db: Db, actorId: number): Promise<number | undefined> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM "user" WHERE actor = $1', [actorId]);
  return rows[0]?.id;
}

export interface BundleForCharge {
  id: number;
  belongs_to__organization: number;
  original_quantity: number;
  unit_cost: number;
  total_cost: number;
}

export async function selectBundleForCharge(db: Db, id: number): Promise<BundleForCharge | undefined> {
  const { rows } = await db.query<BundleForCharge>('SELECT id, belongs_to__organization, original_quantity, unit_cost, total_cost FROM credit_bundle WHERE id = $1', [id]);
  return rows[0];
}

/** A purchase's outcome: its status, what it makes available, its invoice and the provider's message. */
export async function updateBundleOutcome(
  db: Db,
  id: number,
  outcome: { status: CreditBundleStatus; balance: number; invoiceNumber: string | null; errorMessage: string | null },
): Promise<void> {
  await db.query(
    `UPDATE credit_bundle SET payment_status = $2, total_balance = $3, available_balance = $3, is_associated_with__invoice_id = $4,
            error_message = $5, modified_at = now() WHERE id = $1`,
    [id, outcome.status, outcome.balance, outcome.invoiceNumber, outcome.errorMessage],
  );
}

/** The credit invoice's state after the charge (paid: when, and the provider's reference). */
export async function updateCreditInvoice(db: Db, invoiceId: number, state: InvoiceState, at: Date, reference: string | null): Promise<void> {
  await db.query(
    `UPDATE invoice SET state = $2::varchar, provider_reference = $4, paid_at = CASE WHEN $2::varchar = 'paid' THEN $3::timestamptz END,
            due_on = CASE WHEN $2::varchar = 'paid' THEN $3::timestamptz ELSE $3::timestamptz + interval '30 days' END
      WHERE id = $1`,
    [invoiceId, state, at, reference],
  );
}

/** A declined purchase leaves no invoice (its number is skipped, as after any rolled back billing change). */
export async function deleteInvoice(db: Db, invoiceId: number): Promise<void> {
  await db.query('DELETE FROM invoice WHERE id = $1', [invoiceId]);
}

/**
 * Spec 3 §4: the organization's available credits: the balance of its paid, complimentary
 * and manually invoiced bundles that have not expired (for the usage ledger's
 * `creditConsumption` and the low-credit notification).
 */
export async function availableCredits(db: Db, organization: number, now: Date = new Date()): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    `SELECT COALESCE(SUM(available_balance), 0) AS n FROM credit_bundle
      WHERE belongs_to__organization = $1 AND payment_status = ANY($2) AND expires_on__date > $3`,
    [organization, COUNTED_CREDIT_STATUSES, now],
  );
  return Number(rows[0]!.n);
}

export interface CreditNotificationRow {
  id: number;
  organization: number;
  threshold: number;
  is_notified: boolean;
  organization_name: string;
}

/** Every low-credit notification (one per organization and feature). */
export async function selectCreditNotifications(db: Db): Promise<CreditNotificationRow[]> {
  const { rows } = await db.query<CreditNotificationRow>(
    `SELECT n.id, n.organization, n.is_sent_when_below__threshold AS threshold, n.is_notified, o.name AS organization_name
       FROM organization_credit_notification n JOIN organization o ON o.id = n.organization ORDER BY n.id`,
  );
  return rows;
}

/** Marks a notification sent (true) or re-arms it (false); only when it is still in the other state (one mail per dip). */
export async function setNotified(db: Db, id: number, notified: boolean): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE organization_credit_notification SET is_notified = $2 WHERE id = $1 AND is_notified <> $2', [id, notified]);
  return (rowCount ?? 0) > 0;
}
