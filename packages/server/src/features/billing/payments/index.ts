import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../../infra/app/context.js';
import { billingAccountRoutes } from './billing-account.routes.js';
import { ManualPaymentProvider } from './manual.js';
import type { PaymentProvider } from './provider.js';
import { StripePaymentProvider } from './stripe.js';

export * from './provider.js';
export { selectBillingCustomer } from './payments.repository.js';

const providers = new WeakMap<FastifyInstance, PaymentProvider>();

/** The app's configured payment provider (AppConfig.billing.provider; default manual). */
export function paymentProvider(app: FastifyInstance): PaymentProvider {
  let provider = providers.get(app);
  if (!provider) {
    const config = app.context.config.billing?.provider;
    provider = config?.kind === 'stripe' ? new StripePaymentProvider(app.context.db, config) : new ManualPaymentProvider(app.context.db);
    providers.set(app, provider);
  }
  return provider;
}

/** Routes and rules of payments (billing account, billing info, setup intents). */
export async function setupPayments(app: FastifyInstance, _rules: Rules): Promise<void> {
  await billingAccountRoutes(app);
}
