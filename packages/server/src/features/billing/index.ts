import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import type { JobDefinition } from '../../infra/jobs/job-runner.js';
import { creditsJobs, setupCredits } from './credits/index.js';
import { invoicesJobs, setupInvoices } from './invoices/index.js';
import { paymentsJobs, setupPayments } from './payments/index.js';
import { plansJobs, setupPlans } from './plans/index.js';
import { setupUsage, usageJobs } from './usage/index.js';

export { billingEnabled } from './access.js';
export { assertNotFrozen, FROZEN_ORGANIZATION_MESSAGE, frozenDeviceIds, issueInvoiceMail, selectBilledTo } from './invoices/index.js';
export { cancelSubscriptions, checkDeviceAllowance, currentPlan, ensureSubscription, invitationRoleCheck, loadPlansFile, planCodesOf, planIncludes, planLimitsOf } from './plans/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Billing's durable jobs (usage ledger, period close, past-due, credit notifications), started with the others. */
    billingJobs: readonly JobDefinition[];
  }
}

/**
 * Billing (issue 18, spec 3; docs/billing.md): plans and subscriptions, payments, invoices,
 * the usage ledger with past-due and freezing, credits. Each part registers its own routes,
 * rules and jobs.
 */
export async function setup(app: FastifyInstance, rules: Rules): Promise<void> {
  await setupPlans(app, rules);
  await setupPayments(app, rules);
  await setupInvoices(app, rules);
  await setupUsage(app, rules);
  await setupCredits(app, rules);
  app.decorate('billingJobs', [...plansJobs(app), ...invoicesJobs(app), ...usageJobs(app), ...creditsJobs(app), ...paymentsJobs(app)]);
}
