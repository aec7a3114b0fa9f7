import { creditsToCover, devicesCoveredBy } from '@flotilla/model';
import type { CreditConsumptionSource } from '../usage/index.js';
import { availableCredits, spendCredits } from './credits.repository.js';

/**
 * Spec 3 §4/§5: prepaid device credits pay for devices beyond the plan. For each device
 * resource over the plan (in the order given), the balance covers as many whole devices as it
 * can for the period (`creditsToCover`); what it cannot cover stays overage and is invoiced.
 * The period close spends what was used, soonest-expiring bundles first.
 */
export const creditConsumption: CreditConsumptionSource = {
  async cover(db, organization, overage, months, now) {
    let balance = await availableCredits(db, organization, now);
    const used: Record<string, number> = {};
    for (const [resource, devices] of Object.entries(overage)) {
      const covered = Math.min(devices, devicesCoveredBy(balance, months));
      if (covered <= 0) continue;
      const credits = creditsToCover(covered, months);
      used[resource] = credits;
      balance -= credits;
    }
    return used;
  },
  async consume(db, organization, credits, now) {
    await spendCredits(db, organization, credits, now);
  },
};
