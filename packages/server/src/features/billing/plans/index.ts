import { DEFAULT_CATALOGUE } from '@flotilla/model';
import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../../infra/app/context.js';
import type { JobDefinition } from '../../../infra/jobs/job-runner.js';
import { billingEnabled } from '../access.js';
import { registerLimitRules } from './limits.hooks.js';
import { seedCatalogue } from './plans.repository.js';
import { plansRoutes } from './plans.routes.js';
import { ensureAllSubscriptions } from './subscriptions.js';

export { checkDeviceAllowance } from './limits.hooks.js';
export { loadPlansFile, parseCatalogue } from './plans-file.js';
export { changePlan } from './plan-change.js';
export { cancelSubscriptions, planCodesOf, seedCatalogue } from './plans.repository.js';
export { currentPlan, ensureAllSubscriptions, ensureSubscription, planIncludes, planLimitsOf } from './subscriptions.js';

/**
 * Billing: plans (issue 18 items 1, 2; docs/billing.md). With billing on, the catalogue is
 * seeded at start (AppConfig.billing.catalogue, else the model's DEFAULT_CATALOGUE) and the
 * plan limits become rules; the plan routes answer 404 while billing is off.
 */
export async function setupPlans(app: FastifyInstance, rules: Rules): Promise<void> {
  if (billingEnabled(app)) {
    await seedCatalogue(app.context.db, app.context.config.billing?.catalogue ?? DEFAULT_CATALOGUE);
    // Billing turned on for an existing installation: its organizations start on the free plan.
    await ensureAllSubscriptions(app.context.db, new Date(app.context.clock()));
    registerLimitRules(rules);
  }
  await app.register(plansRoutes);
}

/** Durable jobs of plans. */
export function plansJobs(_app: FastifyInstance): JobDefinition[] {
  return [];
}
