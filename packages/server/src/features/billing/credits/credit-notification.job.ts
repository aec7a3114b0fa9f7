import type { AppContext } from '../../../infra/app/context.js';
import type { JobDefinition } from '../../../infra/jobs/job-runner.js';
import { lowCredits } from '../../../infra/mail/templates.js';
import { selectBillingContacts } from '../payments/index.js';
import { availableCredits, selectCreditNotifications, setNotified } from './credits.repository.js';

export const CREDIT_NOTIFICATION_JOB = 'billing-credit-notifications';

/**
 * Spec 3 §4/§5 low-credit notification: each organization with a notification is mailed
 * (its billing email, else its first administrator, and its cc recipients) ONCE when its
 * available credits are below the threshold; the notification is re-armed when the balance is
 * back at or over it. Marking and queueing share a transaction, so two workers never both mail.
 */
export async function checkCreditNotifications(app: AppContext): Promise<void> {
  if (app.config.billing?.enabled !== true) return;
  const now = new Date(app.clock());
  for (const n of await selectCreditNotifications(app.db)) {
    const balance = await availableCredits(app.db, n.organization, now);
    if (balance >= n.threshold) {
      if (n.is_notified) await setNotified(app.db, n.id, false);
      continue;
    }
    if (n.is_notified) continue;
    await app.db.tx(async (tx) => {
      if (!(await setNotified(tx, n.id, true))) return; // another worker got there first
      const mail = lowCredits({
        organizationName: n.organization_name,
        balance,
        threshold: n.threshold,
        creditsUrl: app.mailer.publicLink(`/orgs/${n.organization}/credits`),
      });
      for (const to of await selectBillingContacts(tx, n.organization)) await app.mailer.queue(tx, { to, ...mail });
    });
  }
}

export function creditNotificationJob(app: AppContext): JobDefinition {
  return { name: CREDIT_NOTIFICATION_JOB, cron: '* * * * *', run: () => checkCreditNotifications(app) };
}
