import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../../infra/app/context.js';
import { ManualPaymentProvider } from './manual.js';
import type { PaymentProvider } from './provider.js';

export * from './provider.js';
export { selectBillingCustomer } from './payments.repository.js';

const providers = new WeakMap<FastifyInstance, PaymentProvider>();

/** The app's configured payment provider (AppConfig.billing.provider; default manual). */
export function paymentProvider(app: FastifyInstance): PaymentProvider {
  let provider = providers.get(app);
  if (!provider) {
    const config = app.context.config.billing?.provider;
    if (config?.kind === 'stripe') throw new Error('the Stripe adapter is not built yet');
    provider = new ManualPaymentProvider(app.context.db);
    providers.set(app, provider);
  }
  return provider;
}

/** Routes and rules of payments (billing account, billing info, setup intents). */
export async function setupPayments(_app: FastifyInstance, _rules: Rules): Promise<void> {}
