import type { Mailer } from '../mail/mailer.js';
import type { JobDefinition, JobRunner } from './job-runner.js';

/**
 * Mail delivery as durable jobs (infra/mail/mailer.ts): each committed mail becomes a
 * `mail-delivery` job on whichever process takes it, and `mail-retry` sweeps every minute for
 * mail whose next attempt is due (SMTP failures, a process that died mid-attempt).
 */
export const MAIL_DELIVERY_JOB = 'mail-delivery';
export const MAIL_RETRY_JOB = 'mail-retry';

export function useMailJobs(jobs: JobRunner, mailer: Mailer): void {
  const delivery: JobDefinition<{ outboxId?: unknown }> = {
    name: MAIL_DELIVERY_JOB,
    run: async ({ outboxId }) => {
      if (typeof outboxId === 'number') await mailer.deliver(outboxId);
    },
  };
  jobs.register(delivery);
  jobs.register({ name: MAIL_RETRY_JOB, cron: '* * * * *', run: async () => void (await mailer.deliverDue()) });
  mailer.useDispatcher((outboxId) => jobs.send(MAIL_DELIVERY_JOB, { outboxId }));
}
