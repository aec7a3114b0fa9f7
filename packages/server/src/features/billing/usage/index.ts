import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../../infra/app/context.js';
import type { JobDefinition } from '../../../infra/jobs/job-runner.js';
import { requireBillingAccess } from '../access.js';
import { currentUsage, recordAllUsage } from './usage.service.js';

export { recordUsageFor, recordAllUsage, usageSummary, includedQuantity, useCreditConsumptionSource, type CreditConsumptionSource, type UsageSummary } from './usage.service.js';
export { selectActiveSubscription, updateSubscriptionPeriodEnd, selectOrganizationsWithEndedPeriods } from './usage.repository.js';
export { currentPeriod, periodEndingAt, nextPeriod, addMonths, periodMonths, type ActiveSubscription } from './period.js';

export const USAGE_LEDGER_JOB = 'billing-usage-ledger';

const orgParams = { type: 'object', required: ['org'], properties: { org: { type: 'integer', minimum: 1, maximum: 2147483647 } } } as const;
const counts = { type: 'object', additionalProperties: { type: 'number' } } as const;

/** Billing: usage (issue 18 item 3; docs/billing.md "Usage and invoices"). */
export async function setupUsage(app: FastifyInstance, _rules: Rules): Promise<void> {
  app.get<{ Params: { org: number } }>(
    '/billing/v1/account/:org/usage',
    {
      schema: {
        params: orgParams,
        response: { 200: { type: 'object', properties: { currentUsage: counts, peakUsage: counts, overage: counts, charges: counts, creditConsumption: counts } } },
      },
      config: { noStore: true },
    },
    async (request) => {
      await requireBillingAccess(app, request, request.params.org);
      return currentUsage(app, request.params.org);
    },
  );
}

/** The usage ledger, every 15 minutes. */
export function usageJobs(app: FastifyInstance): JobDefinition[] {
  return [{ name: USAGE_LEDGER_JOB, cron: '*/15 * * * *', run: async () => void (await recordAllUsage(app)) }];
}
