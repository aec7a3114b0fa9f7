import type { CreditBundleStatus, InvoiceState } from '@flotilla/model';
import type { Db } from '../../../infra/db/db.js';
import type { InvoiceRow } from '../invoices/invoice.repository.js';

/** Remembers a Stripe event; false when it was received before (a replay). Migration 0037. */
export async function insertWebhookEvent(db: Db, id: string, type: string): Promise<boolean> {
  const { rows } = await db.query<{ id: string }>('INSERT INTO stripe_webhook_event (id, type) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id', [id, type]);
  return rows.length > 0;
}

/**
 * How long a received event's id is kept. Stripe retries a delivery for up to 3 days and a
 * signature is accepted for 5 minutes, so an id older than this can never come back.
 */
export const WEBHOOK_EVENT_RETENTION_DAYS = 30;

/** Forgets events received before `before` (the daily prune job); how many were removed. */
export async function pruneWebhookEvents(db: Db, before: Date): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM stripe_webhook_event WHERE received_at < $1', [before]);
  return rowCount ?? 0;
}

export async function setWebhookEventOutcome(db: Db, id: string, outcome: string): Promise<void> {
  await db.query('UPDATE stripe_webhook_event SET outcome = $2 WHERE id = $1', [id, outcome.slice(0, 2000)]);
}

/**
 * The Stripe invoice a payment intent was charged for, locked: by the reference recorded when it
 * was charged (`pi_…`), else by the invoice number the charge carries in its metadata when
 * none was recorded.
 */
export async function selectInvoiceOfIntent(db: Db, intentId: string, invoiceNumber: string | null): Promise<InvoiceRow | undefined> {
  const { rows } = await db.query<InvoiceRow>(
    `SELECT * FROM invoice
      WHERE provider = 'stripe'
        AND (provider_reference = $1 OR ($2::text IS NOT NULL AND invoice_number = $2 AND provider_reference IS NULL))
      ORDER BY (provider_reference = $1) DESC NULLS LAST, id LIMIT 1 FOR UPDATE`,
    [intentId, invoiceNumber],
  );
  return rows[0];
}

/** An invoice's state after a payment event (the message of a failed payment; the intent as reference). */
export async function setInvoiceState(db: Db, id: number, state: InvoiceState, failureMessage: string | null, reference: string): Promise<void> {
  await db.query('UPDATE invoice SET state = $2, failure_message = $3, provider_reference = COALESCE(provider_reference, $4) WHERE id = $1', [id, state, failureMessage, reference]);
}

/** A bundle's status after a payment event, with what it makes available. */
export async function updateBundleState(db: Db, id: number, next: { status: CreditBundleStatus; balance: number; errorMessage: string | null }): Promise<void> {
  await db.query('UPDATE credit_bundle SET payment_status = $2, total_balance = $3, available_balance = $3, error_message = $4, modified_at = now() WHERE id = $1', [
    id,
    next.status,
    next.balance,
    next.errorMessage,
  ]);
}
