import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../../infra/app/context.js';
import type { JobDefinition } from '../../../infra/jobs/job-runner.js';

/** Billing: usage (issue 18; docs/billing.md). Routes and rules. */
export async function setupUsage(_app: FastifyInstance, _rules: Rules): Promise<void> {}

/** Durable jobs of usage. */
export function usageJobs(_app: FastifyInstance): JobDefinition[] {
  return [];
}
