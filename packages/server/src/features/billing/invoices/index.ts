import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../../infra/app/context.js';
import type { JobDefinition } from '../../../infra/jobs/job-runner.js';
import { registerFrozenWriteRule } from './frozen.js';
import { invoiceRoutes } from './invoices.routes.js';
import { closeDuePeriods } from './period-close.js';
import { recomputePastDue } from './past-due.js';

export { issueInvoiceMail } from './invoice-mail.js';
export { selectBilledTo } from './invoice.repository.js';
export { recomputePastDue } from './past-due.js';
export { closePeriodsOf, closeDuePeriods, chargeInvoice, INVOICE_DUE_DAYS } from './period-close.js';
export { announceFrozenDevicesChanged, assertNotFrozen, frozenDeviceIds, FROZEN_ORGANIZATION_MESSAGE, OrganizationFrozenError } from './frozen.js';
export { INVOICE_NOT_AVAILABLE_MESSAGE } from './invoices.routes.js';

export const PERIOD_CLOSE_JOB = 'billing-period-close';
export const PAST_DUE_JOB = 'billing-past-due';

/** Billing: invoices, their PDFs and mail, the period close, past due and frozen organizations (issue 18 items 4, 6). */
export async function setupInvoices(app: FastifyInstance, rules: Rules): Promise<void> {
  await invoiceRoutes(app);
  registerFrozenWriteRule(app, rules);
}

/** Durable jobs of invoices: the period close and the past-due sweep, daily. */
export function invoicesJobs(app: FastifyInstance): JobDefinition[] {
  return [
    { name: PERIOD_CLOSE_JOB, cron: '5 0 * * *', run: async () => void (await closeDuePeriods(app)) },
    { name: PAST_DUE_JOB, cron: '20 0 * * *', run: async () => recomputePastDue(app, app.context.db) },
  ];
}
