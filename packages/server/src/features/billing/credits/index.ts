import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../../infra/app/context.js';
import type { JobDefinition } from '../../../infra/jobs/job-runner.js';
import { adminCreditRoutes } from './admin-credits.routes.js';
import { registerCreditBundleRules } from './credit-bundle.hooks.js';
import { creditNotificationJob } from './credit-notification.job.js';
import { creditConsumption } from './credit-consumption.js';
import { useCreditConsumptionSource } from '../usage/index.js';

export { availableCredits } from './credits.repository.js';
export { CREDIT_NOTIFICATION_JOB, checkCreditNotifications } from './credit-notification.job.js';

/**
 * Billing: credits (issue 18 item 7; docs/billing.md "Credits"): the `credit_bundle` purchase
 * rule (priced from the plan, charged through the payment provider) and the low-credit
 * notification's rules and job; platform administrators' grants and refunds (admin-credits.routes.ts).
 */
export async function setupCredits(app: FastifyInstance, rules: Rules): Promise<void> {
  registerCreditBundleRules(rules);
  useCreditConsumptionSource(app, creditConsumption);
  await adminCreditRoutes(app);
}

/** Durable jobs of credits: the low-credit notification check. */
export function creditsJobs(app: FastifyInstance): JobDefinition[] {
  return [creditNotificationJob(app.context)];
}
