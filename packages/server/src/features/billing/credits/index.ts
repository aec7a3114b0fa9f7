import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../../infra/app/context.js';
import type { JobDefinition } from '../../../infra/jobs/job-runner.js';

/** Billing: credits (issue 18; docs/billing.md). Routes and rules. */
export async function setupCredits(_app: FastifyInstance, _rules: Rules): Promise<void> {}

/** Durable jobs of credits. */
export function creditsJobs(_app: FastifyInstance): JobDefinition[] {
  return [];
}
