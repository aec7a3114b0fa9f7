import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../../infra/app/context.js';
import type { JobDefinition } from '../../../infra/jobs/job-runner.js';

/** Billing: invoices (issue 18; docs/billing.md). Routes and rules. */
export async function setupInvoices(_app: FastifyInstance, _rules: Rules): Promise<void> {}

/** Durable jobs of invoices. */
export function invoicesJobs(_app: FastifyInstance): JobDefinition[] {
  return [];
}
