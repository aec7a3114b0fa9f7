import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../../infra/app/context.js';
import type { JobDefinition } from '../../../infra/jobs/job-runner.js';

/** Billing: plans (issue 18; docs/billing.md). Routes and rules. */
export async function setupPlans(_app: FastifyInstance, _rules: Rules): Promise<void> {}

/** Durable jobs of plans. */
export function plansJobs(_app: FastifyInstance): JobDefinition[] {
  return [];
}
