import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ACCOUNT_MESSAGES, BILLING_MESSAGES, CAPABILITIES } from '@flotilla/model';
import { buildApp } from '../../../app.js';
import type { StripeProviderConfig } from '../../../infra/app/context.js';
import { bearer, createTestDb, sdkClient, signUp, TEST_JWT_SECRET, type SignedUpUser } from '../../../../test/harness.js';
import { featureId, seedDefaultCatalogue, subscribe } from '../../../../test/support/billing-catalogue.js';
import { StripeStandIn } from '../../../../test/support/stripe-stand-in.js';
import { availableCredits } from '../credits/index.js';
import { paymentProvider, selectBillingCustomer } from './index.js';

/*
 * Issue 18 items 5 and 7 with the Stripe provider, against a local stand-in of the Stripe API
 * (test/support/stripe-stand-in.ts): a setup intent, the browser finishing it, attaching it
 * (getBillingInfo shows the card), replacing and removing it (detached at Stripe), buying
 * credits paid by card and declined, and a provider that cannot be reached or is not
 * configured (503, nothing written or charged). balena-sdk `models.billing` / `models.creditBundle`.
 */
let t: Awaited<ReturnType<typeof createTestDb>>;
const stripe = new StripeStandIn();
let app: FastifyInstance;
let downApp: FastifyInstance;
let unconfiguredApp: FastifyInstance;
let captchaApp: FastifyInstance;
let apiUrl: string;
let buyer: SignedUpUser;
let decliner: SignedUpUser;
let other: SignedUpUser;
let credits: number;

const stripeConfig = (over: Partial<StripeProviderConfig> = {}): StripeProviderConfig => ({
  kind: 'stripe',
  secretKey: stripe.secretKey,
  publishableKey: 'pk_test_standin',
  apiUrl: stripe.url,
  timeoutMs: 3000,
  ...over,
});
const sdkAs = async (u: SignedUpUser) => {
  const sdk = sdkClient(apiUrl);
  await sdk.auth.loginWithToken(u.token);
  return sdk;
};
const state = async () => {
  const { rows } = await t.db.query<{ bundles: string; invoices: string; accounts: string }>(
    `SELECT (SELECT count(*) FROM credit_bundle) AS bundles, (SELECT count(*) FROM invoice) AS invoices,
            (SELECT string_agg(organization || ':' || COALESCE(billing_info::text, '-') || ':' || COALESCE(provider_payment_method_id, '-'), ',' ORDER BY organization) FROM billing_account) AS accounts`,
  );
  return rows[0];
};
/** Setup intent → the browser confirms it with a card → PATCH …/info with its id. */
async function addCard(u: SignedUpUser, card: Parameters<StripeStandIn['completeSetup']>[1] = {}, details: Record<string, string> = {}) {
  const sdk = await sdkAs(u);
  const intent = await sdk.models.billing.createSetupIntent({ organization: u.orgId, 'g-recaptcha-response': 'dummy' });
  const pm = stripe.completeSetup(intent.id, card);
  await sdk.models.billing.updateBillingInfo(u.orgId, { token_type: 'setup_intent', token_id: intent.id, ...details } as never);
  return { intent, pm };
}

beforeAll(async () => {
  await stripe.start();
  t = await createTestDb();
  app = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET, billing: { enabled: true, provider: stripeConfig() } });
  downApp = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET, billing: { enabled: true, provider: stripeConfig({ apiUrl: 'http://127.0.0.1:9' }) } });
  unconfiguredApp = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET, billing: { enabled: true, provider: stripeConfig({ secretKey: '' }) } });
  captchaApp = await buildApp({
    db: t.db,
    jwtSecret: TEST_JWT_SECRET,
    billing: { enabled: true, provider: stripeConfig() },
    accounts: { captcha: { secret: 's3cret', verifyUrl: 'http://127.0.0.1:9/siteverify', timeoutMs: 2000 } },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  apiUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  await seedDefaultCatalogue(t.db);
  credits = await featureId(t.db, CAPABILITIES.credits);
  [buyer, decliner, other] = [await signUp(app), await signUp(app), await signUp(app)];
  for (const u of [buyer, decliner, other]) await subscribe(t.db, u.orgId, 'production-v2');
});

afterAll(async () => {
  for (const a of [app, downApp, unconfiguredApp, captchaApp]) await a?.close();
  await stripe.close();
  await t?.drop();
});

describe('card setup', () => {
  it('/config/dashboard gives the publishable key', async () => {
    expect((await app.inject({ method: 'GET', url: '/config/dashboard' })).json()).toMatchObject({ stripePublishableKey: 'pk_test_standin' });
  });

  it('a setup intent is made for the organization’s customer (one customer, off-session use)', async () => {
    const sdk = await sdkAs(buyer);
    const a = await sdk.models.billing.createSetupIntent({ organization: buyer.orgId, 'g-recaptcha-response': 'dummy' });
    const b = await sdk.models.billing.createSetupIntent({ organization: buyer.orgId });
    expect(a.id).toMatch(/^seti_/);
    expect(a.client_secret).toContain('_secret_');
    expect(b.id).not.toBe(a.id);
    const created = stripe.to('POST', '/v1/customers').filter((r) => r.path === '/v1/customers');
    expect(created).toHaveLength(1);
    expect(created[0]!.form['metadata[organization_id]']).toBe(String(buyer.orgId));
    const intents = stripe.to('POST', '/v1/setup_intents');
    expect(intents.map((r) => r.form.usage)).toEqual(['off_session', 'off_session']);
    expect(new Set(intents.map((r) => r.form.customer)).size).toBe(1);
  });

  it('the captcha is checked like sign-up’s when one is configured', async () => {
    const res = await captchaApp.inject({ method: 'POST', url: `/billing/v1/account/${buyer.orgId}/setup-intent`, headers: bearer(buyer.token), payload: {} });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toBe(ACCOUNT_MESSAGES.captchaRequired);
  });

  it('attaching the finished setup intent shows the card with the billing address, company and VAT number', async () => {
    const { pm } = await addCard(buyer, { brand: 'mastercard', last4: '4444' }, { company: 'Acme Ltd', vat_number: 'GB999' });
    const sdk = await sdkAs(buyer);
    expect(await sdk.models.billing.getBillingInfo(buyer.orgId)).toMatchObject({
      type: 'card',
      card_type: 'mastercard',
      last_four: '4444',
      month: 12,
      year: 2030,
      full_name: 'Ada Lovelace',
      address1: '1 Analytical Way',
      city: 'London',
      zip: 'N1 1AA',
      country: 'GB',
      company: 'Acme Ltd',
      vat_number: 'GB999',
    });
    const customer = [...stripe.customers.values()].find((c) => (c.metadata as Record<string, string>).organization_id === String(buyer.orgId))!;
    expect(customer.invoice_settings).toEqual({ default_payment_method: pm });
  });

  it('refuses an unfinished setup intent, another organization’s and an unknown one, writing nothing', async () => {
    const otherSdk = await sdkAs(other);
    const othersIntent = await otherSdk.models.billing.createSetupIntent({ organization: other.orgId });
    stripe.completeSetup(othersIntent.id);
    const mine = await (await sdkAs(buyer)).models.billing.createSetupIntent({ organization: buyer.orgId });
    const before = await state();
    for (const [tokenId, message] of [
      [mine.id, BILLING_MESSAGES.setupIntentNotFinished],
      [othersIntent.id, BILLING_MESSAGES.setupIntentNotFound],
      ['seti_nonexistent', BILLING_MESSAGES.setupIntentNotFound],
    ] as const) {
      const res = await app.inject({ method: 'PATCH', url: `/billing/v1/account/${buyer.orgId}/info`, headers: bearer(buyer.token), payload: { token_type: 'setup_intent', token_id: tokenId } });
      expect(res.statusCode, tokenId).toBe(400);
      expect(res.json()).toBe(message);
    }
    const manual = await app.inject({ method: 'PATCH', url: `/billing/v1/account/${buyer.orgId}/info`, headers: bearer(buyer.token), payload: { token_type: 'manual', token_id: 'x' } });
    expect(manual.statusCode).toBe(400);
    expect(await state()).toEqual(before);
  });

  it('shows a bank account; replacing the method detaches the old one; removing detaches it', async () => {
    const { pm: card } = await addCard(other);
    const { pm: bank } = await addCard(other, { type: 'us_bank_account', last4: '6789' });
    const sdk = await sdkAs(other);
    expect(await sdk.models.billing.getBillingInfo(other.orgId)).toMatchObject({ type: 'us_bank_account', last_four: '6789', routing_number: '110000000' });
    expect(stripe.to('POST', `/v1/payment_methods/${card}/detach`)).toHaveLength(1);
    await sdk.models.billing.removeBillingInfo(other.orgId);
    expect(stripe.to('POST', `/v1/payment_methods/${bank}/detach`)).toHaveLength(1);
    expect(await sdk.models.billing.getBillingInfo(other.orgId)).toEqual({});
  });
});

describe('buying credits by card', () => {
  it('is paid: charged off session in USD, a paid credits invoice, the credits available', async () => {
    const sdk = await sdkAs(buyer);
    const bundle = (await sdk.models.creditBundle.create(buyer.orgId, credits, 5)) as unknown as Record<string, unknown>;
    expect(bundle).toMatchObject({ payment_status: 'paid', total_cost: 2000, total_balance: 5, available_balance: 5, error_message: null });
    const charge = stripe.to('POST', '/v1/payment_intents').at(-1)!;
    expect(charge.form).toMatchObject({ amount: '2000', currency: 'usd', off_session: 'true', confirm: 'true', 'metadata[invoice_number]': bundle.is_associated_with__invoice_id });
    expect(charge.idempotencyKey).toBe(`flotilla-charge-${String(bundle.is_associated_with__invoice_id)}`);
    const invoice = (await t.db.query('SELECT state, total_in_cents, provider_reference FROM invoice WHERE invoice_number = $1', [bundle.is_associated_with__invoice_id])).rows[0];
    expect(invoice).toMatchObject({ state: 'paid', total_in_cents: 2000 });
    expect(String((invoice as { provider_reference: string }).provider_reference)).toMatch(/^pi_/);
    expect(await availableCredits(t.db, buyer.orgId)).toBe(5);
  });

  it('a paid charge can be refunded through the provider', async () => {
    const reference = (await t.db.query<{ provider_reference: string }>("SELECT provider_reference FROM invoice WHERE kind = 'credits' AND state = 'paid' AND organization = $1", [buyer.orgId])).rows[0]!.provider_reference;
    const customer = (await selectBillingCustomer(t.db, buyer.orgId))!;
    await paymentProvider(app).refund(customer, reference, 800);
    expect(stripe.refunds).toEqual([expect.objectContaining({ payment_intent: reference, amount: 800 })]);
    await expect(paymentProvider(app).refund(customer, 'pi_unknown', 100)).rejects.toThrow(/No such/);
  });

  it('a declined card: the bundle is kept as failed with the provider’s message, nothing charged, no invoice', async () => {
    await addCard(decliner, { decline: true });
    const invoicesBefore = (await state())!.invoices;
    const paidBefore = stripe.paymentIntents.size;
    const sdk = await sdkAs(decliner);
    const bundle = (await sdk.models.creditBundle.create(decliner.orgId, credits, 3)) as unknown as Record<string, unknown>;
    expect(bundle).toMatchObject({ payment_status: 'failed', error_message: 'Your card was declined.', total_balance: 0, available_balance: 0, is_associated_with__invoice_id: null });
    expect(stripe.paymentIntents.size).toBe(paidBefore);
    expect((await state())!.invoices).toBe(invoicesBefore);
    expect(await availableCredits(t.db, decliner.orgId)).toBe(0);
  });
});

describe('a provider that cannot be used', () => {
  it('unreachable (closed port): 503 with the message, nothing written or charged', async () => {
    const before = await state();
    const intent = await downApp.inject({ method: 'POST', url: `/billing/v1/account/${decliner.orgId}/setup-intent`, headers: bearer(decliner.token), payload: {} });
    expect(intent.statusCode).toBe(503);
    expect(intent.json()).toBe(BILLING_MESSAGES.providerUnreachable);
    const attach = await downApp.inject({ method: 'PATCH', url: `/billing/v1/account/${other.orgId}/info`, headers: bearer(other.token), payload: { token_type: 'setup_intent', token_id: 'seti_x' } });
    expect(attach.statusCode).toBe(503);
    const buy = await downApp.inject({
      method: 'POST',
      url: '/v7/credit_bundle',
      headers: bearer(buyer.token),
      payload: { belongs_to__organization: buyer.orgId, is_for__feature: credits, original_quantity: 2 },
    });
    expect(buy.statusCode).toBe(503);
    expect(buy.json()).toBe(BILLING_MESSAGES.providerUnreachable);
    expect(await state()).toEqual(before);
  });

  it('missing keys: 503 Missing billing provider configuration parameters', async () => {
    const res = await unconfiguredApp.inject({ method: 'POST', url: `/billing/v1/account/${buyer.orgId}/setup-intent`, headers: bearer(buyer.token), payload: {} });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toBe(BILLING_MESSAGES.missingProviderConfiguration);
    expect((await unconfiguredApp.inject({ method: 'GET', url: '/config/dashboard' })).json()).toMatchObject({ stripePublishableKey: 'pk_test_standin' });
  });
});
