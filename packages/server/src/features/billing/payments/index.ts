import type { FastifyInstance } from 'fastify';
import type { AppContext, Rules } from '../../../infra/app/context.js';
import type { JobDefinition } from '../../../infra/jobs/job-runner.js';
import { billingAccountRoutes } from './billing-account.routes.js';
import { ManualPaymentProvider } from './manual.js';
import type { PaymentProvider } from './provider.js';
import { StripePaymentProvider } from './stripe.js';
import { stripeWebhookRoutes } from './stripe-webhook.js';
import { pruneWebhookEvents, WEBHOOK_EVENT_RETENTION_DAYS } from './stripe-webhook.repository.js';

export * from './provider.js';
export { selectBillingContacts, selectBillingCustomer, selectBillingInfo } from './payments.repository.js';

const providers = new WeakMap<AppContext, PaymentProvider>();

/** The app's configured payment provider (AppConfig.billing.provider; default manual). */
export function paymentProvider(app: FastifyInstance): PaymentProvider {
  return paymentProviderOf(app.context);
}

/** The same, from the app context a rule (hook) or job is given. */
export function paymentProviderOf(context: AppContext): PaymentProvider {
  let provider = providers.get(context);
  if (!provider) {
    const config = context.config.billing?.provider;
    provider = config?.kind === 'stripe' ? new StripePaymentProvider(context.db, config) : new ManualPaymentProvider(context.db);
    providers.set(context, provider);
  }
  return provider;
}

/** Routes and rules of payments (billing account, billing info, setup intents, Stripe webhooks). */
export async function setupPayments(app: FastifyInstance, _rules: Rules): Promise<void> {
  await billingAccountRoutes(app);
  // Its own scope: the webhook reads its JSON body raw (the signature is over the bytes).
  await app.register(stripeWebhookRoutes);
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The ids of Stripe events received more than WEBHOOK_EVENT_RETENTION_DAYS ago are forgotten (daily). */
export async function pruneStripeWebhookEvents(context: AppContext): Promise<number> {
  return pruneWebhookEvents(context.db, new Date(context.clock() - WEBHOOK_EVENT_RETENTION_DAYS * DAY_MS));
}

export const STRIPE_WEBHOOK_PRUNE_JOB = 'billing-stripe-webhook-prune';

/** Payments' durable jobs. */
export function paymentsJobs(app: FastifyInstance): JobDefinition[] {
  return [{ name: STRIPE_WEBHOOK_PRUNE_JOB, cron: '23 4 * * *', run: async () => void (await pruneStripeWebhookEvents(app.context)) }];
}
