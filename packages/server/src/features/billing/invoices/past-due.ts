import type { FastifyInstance } from 'fastify';
import { pastDueStage } from '@flotilla/model';
import type { Db } from '../../../infra/db/db.js';
import { billingEnabled } from '../access.js';
import { announceFrozenDevicesChanged } from './frozen.js';
import { markInvoicesPastDue, selectPastDueCandidates, updateOrganizationPastDue } from './invoice.repository.js';

/**
 * Issue 18 item 6, spec 3 §4: unpaid invoices whose `due_on` has passed become `past_due`
 * (a failed charge stays `failed`, still unpaid); an organization's
 * `has_past_due_invoice_since__date` is the due date of its oldest unpaid past-due invoice
 * (null when none), and it is frozen from 60 days on (the model's `pastDueStage`). Paying the
 * last past-due invoice clears both at once. `organizations` limits it to those (the
 * immediate recompute after a payment); without it every organization is swept (the daily job).
 */
export async function recomputePastDue(app: FastifyInstance, db: Db, organizations?: readonly number[]): Promise<void> {
  if (!billingEnabled(app)) return;
  const now = new Date(app.context.clock());
  const only = organizations === undefined ? null : [...organizations];
  await markInvoicesPastDue(db, now, only);
  const rows = await selectPastDueCandidates(db, now, only);
  for (const r of rows) {
    const frozen = pastDueStage(r.since, now).stage === 'frozen';
    if (r.was_frozen === frozen && (r.was_since?.getTime() ?? null) === (r.since?.getTime() ?? null)) continue;
    await updateOrganizationPastDue(db, r.id, r.since, frozen);
    if (frozen !== r.was_frozen) await announceFrozenDevicesChanged(app.context, db, [r.id]);
    if (frozen !== r.was_frozen) app.log.info({ organization: r.id, frozen, since: r.since }, frozen ? 'organization frozen: invoices more than 60 days past due' : 'organization unfrozen');
  }
}
