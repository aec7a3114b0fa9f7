import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { CAPABILITIES, DEFAULT_CATALOGUE } from '@flotilla/model';
import { buildApp } from '../../../app.js';
import type { StripeProviderConfig } from '../../../infra/app/context.js';
import { BILLING_OFF_MESSAGE } from '../access.js';
import { createTestDb, sdkClient, signUp, TEST_JWT_SECRET, type SignedUpUser } from '../../../../test/harness.js';
import { featureId, seedDefaultCatalogue, subscribe } from '../../../../test/support/billing-catalogue.js';
import { StripeStandIn, type StripeEventBody } from '../../../../test/support/stripe-stand-in.js';
import { availableCredits } from '../credits/index.js';
import { recomputePastDue } from '../invoices/past-due.js';
import { CHARGE_NOT_RECORDED_MESSAGE } from '../plans/plan-change.js';
import { pruneStripeWebhookEvents, STRIPE_WEBHOOK_PRUNE_JOB } from './index.js';
import { WEBHOOK_MESSAGES, WEBHOOK_PATH } from './stripe-webhook.js';

/*
 * Stripe end to end on the server (issue 18 leftovers), against the Stripe stand-in
 * (test/support/stripe-stand-in.ts) and real PostgreSQL, with balena-sdk as the client:
 * - an upgrade whose charge is declined: 402 with Stripe's message, the plan unchanged, no
 *   invoice written, nothing charged;
 * - webhooks (POST /billing/v1/stripe/webhook): a bank debit's pending charge paid or failed
 *   by its payment intent's event, a refund, a replay, a bad / missing / stale signature
 *   (nothing changes), unknown events, and a server without the secret or without Stripe.
 */
const SECRET = 'whsec_test_standin';
const prototypePrice = DEFAULT_CATALOGUE.plans.find((p) => p.code === 'prototype-v2')!.monthlyPrice;
let t: Awaited<ReturnType<typeof createTestDb>>;
const stripe = new StripeStandIn();
let app: FastifyInstance;
let noSecretApp: FastifyInstance;
let manualApp: FastifyInstance;
let offApp: FastifyInstance;
let apiUrl: string;
let hookUrl: string;
let credits: number;

const stripeConfig = (over: Partial<StripeProviderConfig> = {}): StripeProviderConfig => ({
  kind: 'stripe',
  secretKey: stripe.secretKey,
  publishableKey: stripe.publishableKey,
  apiUrl: stripe.url,
  timeoutMs: 3000,
  webhookSecret: SECRET,
  ...over,
});
const sdkAs = async (u: SignedUpUser) => {
  const sdk = sdkClient(apiUrl);
  await sdk.auth.loginWithToken(u.token);
  return sdk;
};
async function addMethod(u: SignedUpUser, method: Parameters<StripeStandIn['completeSetup']>[1]) {
  const sdk = await sdkAs(u);
  const intent = await sdk.models.billing.createSetupIntent({ organization: u.orgId, 'g-recaptcha-response': 'dummy' });
  stripe.completeSetup(intent.id, method);
  await sdk.models.billing.updateBillingInfo(u.orgId, { token_type: 'setup_intent', token_id: intent.id } as never);
}
const planOf = async (orgId: number) =>
  (
    await t.db.query<{ code: string; n: string }>(
      `SELECT p.billing_code AS code, (SELECT count(*) FROM subscription WHERE is_for__organization = $1) AS n
         FROM subscription s JOIN plan p ON p.id = s.is_for__plan WHERE s.is_for__organization = $1 AND s.is_active`,
      [orgId],
    )
  ).rows[0];
const invoicesOf = async (orgId: number) =>
  (
    await t.db.query<{ invoice_number: string; kind: string; state: string; failure_message: string | null; provider_reference: string | null; paid_at: Date | null }>(
      'SELECT invoice_number, kind, state, failure_message, provider_reference, paid_at FROM invoice WHERE organization = $1 ORDER BY id',
      [orgId],
    )
  ).rows;
const billingState = async () =>
  (
    await t.db.query<{ s: string }>(
      `SELECT (SELECT string_agg(invoice_number || ':' || state || ':' || COALESCE(failure_message, '-'), ',' ORDER BY id) FROM invoice)
              || '|' || COALESCE((SELECT string_agg(id || ':' || payment_status || ':' || available_balance, ',' ORDER BY id) FROM credit_bundle), '')
              || '|' || (SELECT string_agg(id::text || is_frozen::text || COALESCE(has_past_due_invoice_since__date::text, '-'), ',' ORDER BY id) FROM organization) AS s`,
    )
  ).rows[0]!.s;
const send = (event: StripeEventBody, opts?: Parameters<StripeStandIn['sendEvent']>[3]) => stripe.sendEvent(hookUrl, SECRET, event, opts);
const intentOfInvoice = async (invoiceNumber: string) => {
  const pi = [...stripe.paymentIntents.values()].find((p) => (p.metadata as Record<string, string>).invoice_number === invoiceNumber);
  if (!pi) throw new Error(`no payment intent for ${invoiceNumber}`);
  return String(pi.id);
};

beforeAll(async () => {
  await stripe.start();
  t = await createTestDb();
  app = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET, billing: { enabled: true, provider: stripeConfig() } });
  noSecretApp = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET, billing: { enabled: true, provider: stripeConfig({ webhookSecret: undefined }) } });
  manualApp = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET, billing: { enabled: true } });
  offApp = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET });
  await app.listen({ port: 0, host: '127.0.0.1' });
  apiUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  hookUrl = `${apiUrl}${WEBHOOK_PATH}`;
  await seedDefaultCatalogue(t.db);
  credits = await featureId(t.db, CAPABILITIES.credits);
});

afterAll(async () => {
  for (const a of [app, noSecretApp, manualApp, offApp]) await a?.close();
  await stripe.close();
  await t?.drop();
});

describe('an upgrade charged to a card', () => {
  it('paid: the plan changes and its invoice is paid by the payment intent', async () => {
    const u = await signUp(app);
    await addMethod(u, { brand: 'visa', last4: '4242' });
    const sdk = await sdkAs(u);
    await sdk.models.billing.changePlan(u.orgId, { tier: 'prototype-v2', cycle: 'monthly' });
    expect((await planOf(u.orgId))!.code).toBe('prototype-v2');
    const [invoice] = await invoicesOf(u.orgId);
    expect(invoice).toMatchObject({ kind: 'subscription', state: 'paid' });
    expect(invoice!.provider_reference).toMatch(/^pi_/);
  });

  it('declined at the charge: 402 with Stripe’s message, the plan unchanged, no invoice, nothing charged', async () => {
    const u = await signUp(app);
    await addMethod(u, { decline: true });
    const before = await planOf(u.orgId);
    const intentsBefore = stripe.paymentIntents.size;
    const invoiceCount = async () => Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM invoice')).rows[0]!.n);
    const invoicesBefore = await invoiceCount();
    const sdk = await sdkAs(u);
    const err = (await sdk.models.billing.changePlan(u.orgId, { tier: 'prototype-v2', cycle: 'monthly' }).then(
      () => null,
      (e: unknown) => e,
    )) as { statusCode?: number; body?: unknown } | null;
    expect(err?.statusCode).toBe(402);
    expect(err?.body).toBe('Your card was declined.');
    // The charge was attempted once, with the invoice's idempotency key, and refused.
    const attempt = stripe.to('POST', '/v1/payment_intents').at(-1)!;
    expect(attempt.form).toMatchObject({ amount: String(prototypePrice), currency: 'usd', off_session: 'true' });
    expect(attempt.idempotencyKey).toMatch(/^flotilla-charge-FLT-\d{6}$/);
    expect(stripe.paymentIntents.size).toBe(intentsBefore);
    expect(await planOf(u.orgId)).toEqual(before);
    expect(before!.code).toBe('free');
    expect(await invoicesOf(u.orgId)).toEqual([]);
    expect(await invoiceCount()).toBe(invoicesBefore);
    expect((await sdk.models.billing.getPlan(u.orgId)).code).toBe('free');
    // A retry is a new invoice number: its idempotency key is never the declined one's.
    await expect(sdk.models.billing.changePlan(u.orgId, { tier: 'prototype-v2', cycle: 'monthly' })).rejects.toMatchObject({ statusCode: 402 });
    const retry = stripe.to('POST', '/v1/payment_intents').at(-1)!;
    expect(retry.idempotencyKey).not.toBe(attempt.idempotencyKey);
  });

  it('charged but the change cannot be recorded: the charge is refunded, 503 saying so, nothing changed', async () => {
    const u = await signUp(app);
    await addMethod(u, { brand: 'visa' });
    // The database refuses to record this organization's charge (after Stripe took it).
    await t.db.query(`CREATE FUNCTION test_refuse_charge() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.organization = ${Number(u.orgId)} AND NEW.provider_reference IS NOT NULL THEN RAISE EXCEPTION 'test: recording refused'; END IF; RETURN NEW; END $$`);
    await t.db.query('CREATE TRIGGER test_refuse_charge BEFORE UPDATE ON invoice FOR EACH ROW EXECUTE FUNCTION test_refuse_charge()');
    try {
      const refundsBefore = stripe.refunds.length;
      const sdk = await sdkAs(u);
      await expect(sdk.models.billing.changePlan(u.orgId, { tier: 'prototype-v2', cycle: 'monthly' })).rejects.toMatchObject({ statusCode: 503, body: CHARGE_NOT_RECORDED_MESSAGE });
      const charged = [...stripe.paymentIntents.values()].find((p) => (p.metadata as Record<string, string>).organization_id === String(u.orgId));
      expect(charged).toMatchObject({ status: 'succeeded', amount: prototypePrice });
      expect(stripe.refunds.slice(refundsBefore)).toEqual([expect.objectContaining({ payment_intent: charged!.id, amount: prototypePrice })]);
      expect((await planOf(u.orgId))!.code).toBe('free');
      expect(await invoicesOf(u.orgId)).toEqual([]);
    } finally {
      await t.db.query('DROP TRIGGER test_refuse_charge ON invoice');
      await t.db.query('DROP FUNCTION test_refuse_charge()');
    }
  });
});

describe('webhooks: a bank debit settles later', () => {
  it('a pending upgrade invoice becomes paid on payment_intent.succeeded; a replay changes nothing', async () => {
    const u = await signUp(app);
    await addMethod(u, { type: 'us_bank_account', last4: '6789' });
    const sdk = await sdkAs(u);
    await sdk.models.billing.changePlan(u.orgId, { tier: 'prototype-v2', cycle: 'monthly' });
    const [pending] = await invoicesOf(u.orgId);
    expect(pending).toMatchObject({ state: 'open', paid_at: null });
    const pi = await intentOfInvoice(pending!.invoice_number);
    expect(pending!.provider_reference).toBe(pi);

    const event = stripe.settle(pi, 'succeeded');
    const res = await send(event);
    expect(res).toEqual({ status: 200, body: { received: true } });
    const [paid] = await invoicesOf(u.orgId);
    expect(paid).toMatchObject({ state: 'paid', failure_message: null });
    expect(paid!.paid_at).not.toBeNull();
    expect((await sdk.models.billing.getInvoices(u.orgId))[0]).toMatchObject({ invoice_number: pending!.invoice_number, state: 'paid' } as never);

    // Stripe delivers at least once: the same event again is 200 and changes nothing.
    await t.db.query("UPDATE invoice SET state = 'open', paid_at = NULL WHERE invoice_number = $1", [pending!.invoice_number]);
    const replay = await send(event);
    expect(replay).toEqual({ status: 200, body: { received: true, duplicate: true } });
    expect((await invoicesOf(u.orgId))[0]!.state).toBe('open');
    const recorded = await t.db.query('SELECT type, outcome FROM stripe_webhook_event WHERE id = $1', [event.id]);
    expect(recorded.rows).toEqual([{ type: 'payment_intent.succeeded', outcome: `${pending!.invoice_number} paid` }]);
  });

  it('a pending credit purchase becomes paid (credits available) on payment_intent.succeeded', async () => {
    const u = await signUp(app);
    await subscribe(t.db, u.orgId, 'production-v2');
    await addMethod(u, { type: 'us_bank_account' });
    const sdk = await sdkAs(u);
    const bundle = (await sdk.models.creditBundle.create(u.orgId, credits, 4)) as unknown as Record<string, unknown>;
    expect(bundle).toMatchObject({ payment_status: 'processing', available_balance: 0 });
    expect(await availableCredits(t.db, u.orgId)).toBe(0);
    const invoiceNumber = String(bundle.is_associated_with__invoice_id);
    expect(await send(stripe.settle(await intentOfInvoice(invoiceNumber), 'succeeded'))).toMatchObject({ status: 200 });
    expect((await invoicesOf(u.orgId)).find((i) => i.invoice_number === invoiceNumber)).toMatchObject({ state: 'paid' });
    const [after] = (await sdk.models.creditBundle.getAllByOrg(u.orgId)) as unknown as Array<Record<string, unknown>>;
    expect(after).toMatchObject({ payment_status: 'paid', total_balance: 4, available_balance: 4 });
    expect(await availableCredits(t.db, u.orgId)).toBe(4);
  });

  it('payment_intent.payment_failed: the invoice is failed with Stripe’s message and stays unpaid; a credit purchase fails', async () => {
    const u = await signUp(app);
    await subscribe(t.db, u.orgId, 'production-v2');
    await addMethod(u, { type: 'us_bank_account' });
    const sdk = await sdkAs(u);
    await sdk.models.billing.changePlan(u.orgId, { tier: 'pilot-v2', cycle: 'monthly' });
    const bundle = (await sdk.models.creditBundle.create(u.orgId, credits, 2)) as unknown as Record<string, unknown>;
    const [upgrade, creditsInvoice] = await invoicesOf(u.orgId);
    const message = 'The customer’s bank account has insufficient funds.';
    expect(await send(stripe.settle(await intentOfInvoice(upgrade!.invoice_number), 'failed', message))).toMatchObject({ status: 200 });
    expect(await send(stripe.settle(await intentOfInvoice(creditsInvoice!.invoice_number), 'failed', message))).toMatchObject({ status: 200 });
    const [failedUpgrade, failedCredits] = await invoicesOf(u.orgId);
    expect(failedUpgrade).toMatchObject({ state: 'failed', failure_message: message, paid_at: null });
    expect(failedCredits).toMatchObject({ state: 'failed', failure_message: message });
    // The plan was changed; its unpaid invoice now counts towards past due like any other.
    expect((await planOf(u.orgId))!.code).toBe('pilot-v2');
    const after = ((await sdk.models.creditBundle.getAllByOrg(u.orgId)) as unknown as Array<Record<string, unknown>>).find((b) => b.id === bundle.id);
    expect(after).toMatchObject({ payment_status: 'failed', error_message: message, available_balance: 0 });
  });

  it('a payment failing on an invoice already past due leaves it past due, with the message', async () => {
    const u = await signUp(app);
    await addMethod(u, { type: 'us_bank_account' });
    const sdk = await sdkAs(u);
    await sdk.models.billing.changePlan(u.orgId, { tier: 'prototype-v2', cycle: 'monthly' });
    const [invoice] = await invoicesOf(u.orgId);
    await t.db.query("UPDATE invoice SET state = 'past_due', due_on = now() - interval '3 days' WHERE invoice_number = $1", [invoice!.invoice_number]);
    expect(await send(stripe.settle(await intentOfInvoice(invoice!.invoice_number), 'failed', 'Debit refused.'))).toMatchObject({ status: 200 });
    expect((await invoicesOf(u.orgId))[0]).toMatchObject({ state: 'past_due', failure_message: 'Debit refused.' });
    const org = (await t.db.query<{ since: Date | null }>('SELECT has_past_due_invoice_since__date AS since FROM organization WHERE id = $1', [u.orgId])).rows[0]!;
    expect(org.since).not.toBeNull();
  });

  it('a frozen organization whose past-due debit finally succeeds is unfrozen at once', async () => {
    const u = await signUp(app);
    await addMethod(u, { type: 'us_bank_account' });
    await (await sdkAs(u)).models.billing.changePlan(u.orgId, { tier: 'prototype-v2', cycle: 'monthly' });
    const [invoice] = await invoicesOf(u.orgId);
    await t.db.query("UPDATE invoice SET due_on = now() - interval '70 days' WHERE invoice_number = $1", [invoice!.invoice_number]);
    await recomputePastDue(app, t.db, [u.orgId]);
    const org = async () => (await t.db.query<{ is_frozen: boolean; since: Date | null }>('SELECT is_frozen, has_past_due_invoice_since__date AS since FROM organization WHERE id = $1', [u.orgId])).rows[0]!;
    expect(await org()).toMatchObject({ is_frozen: true });
    expect((await invoicesOf(u.orgId))[0]!.state).toBe('past_due');
    expect(await send(stripe.settle(await intentOfInvoice(invoice!.invoice_number), 'succeeded'))).toMatchObject({ status: 200 });
    expect((await invoicesOf(u.orgId))[0]!.state).toBe('paid');
    expect(await org()).toEqual({ is_frozen: false, since: null });
  });

  it('charge.refunded: a fully refunded credit purchase is refunded (as an administrator refund does) and its credits withdrawn; a partial refund changes nothing', async () => {
    const u = await signUp(app);
    await subscribe(t.db, u.orgId, 'production-v2');
    await addMethod(u, { brand: 'visa' });
    const sdk = await sdkAs(u);
    const bundle = (await sdk.models.creditBundle.create(u.orgId, credits, 3)) as unknown as Record<string, unknown>;
    expect(bundle).toMatchObject({ payment_status: 'paid' });
    const pi = await intentOfInvoice(String(bundle.is_associated_with__invoice_id));
    expect(await send(stripe.refundedEvent(pi, 400))).toMatchObject({ status: 200 });
    expect((await invoicesOf(u.orgId))[0]!.state).toBe('paid');
    expect(await availableCredits(t.db, u.orgId)).toBe(3);
    expect(await send(stripe.refundedEvent(pi))).toMatchObject({ status: 200 });
    expect((await invoicesOf(u.orgId))[0]!.state).toBe('refunded');
    const [after] = (await sdk.models.creditBundle.getAllByOrg(u.orgId)) as unknown as Array<Record<string, unknown>>;
    expect(after).toMatchObject({ payment_status: 'refunded', available_balance: 0 });
    expect(await availableCredits(t.db, u.orgId)).toBe(0);
  });
});

describe('webhooks: what is refused', () => {
  it('a bad, missing or stale signature or a body that is not an event: 400 with the reason, nothing changes', async () => {
    const u = await signUp(app);
    await addMethod(u, { type: 'us_bank_account' });
    await (await sdkAs(u)).models.billing.changePlan(u.orgId, { tier: 'prototype-v2', cycle: 'monthly' });
    const [invoice] = await invoicesOf(u.orgId);
    const event = stripe.settle(await intentOfInvoice(invoice!.invoice_number), 'succeeded');
    const before = await billingState();
    const payload = JSON.stringify(event);
    const now = Math.floor(Date.now() / 1000);
    const cases: Array<[string, Parameters<StripeStandIn['sendEvent']>[3], string]> = [
      ['no signature', { signature: null }, WEBHOOK_MESSAGES.missingSignature],
      ['another secret', { signature: StripeStandIn.signature('whsec_other', payload) }, WEBHOOK_MESSAGES.badSignature],
      ['a changed body', { signature: StripeStandIn.signature(SECRET, payload), body: payload.replace('payment_intent.succeeded', 'payment_intent.succeedeX') }, WEBHOOK_MESSAGES.badSignature],
      ['a garbled header', { signature: 'v1=zz,t=abc' }, WEBHOOK_MESSAGES.badSignature],
      ['a stale timestamp (6 minutes old)', { timestamp: now - 360 }, WEBHOOK_MESSAGES.staleSignature],
      ['a timestamp 6 minutes ahead', { timestamp: now + 360 }, WEBHOOK_MESSAGES.staleSignature],
    ];
    for (const [label, opts, message] of cases) {
      const res = await send(event, opts);
      expect(res, label).toEqual({ status: 400, body: message });
    }
    const notEvent = await stripe.sendEvent(hookUrl, SECRET, { hello: 'world' });
    expect(notEvent).toEqual({ status: 400, body: WEBHOOK_MESSAGES.notAnEvent });
    expect(await billingState()).toBe(before);
    expect((await t.db.query('SELECT 1 FROM stripe_webhook_event WHERE id = $1', [event.id])).rowCount).toBe(0);
    // Signed properly (4 minutes old is within the tolerance), the same event is taken.
    expect(await send(event, { timestamp: now - 240 })).toEqual({ status: 200, body: { received: true } });
    expect((await invoicesOf(u.orgId))[0]!.state).toBe('paid');
  });

  it('an unknown event type or an intent of no invoice: 200, ignored', async () => {
    const before = await billingState();
    const unknown = stripe.event('customer.subscription.updated', { id: 'sub_123' });
    expect(await send(unknown)).toEqual({ status: 200, body: { received: true } });
    const stray = stripe.event('payment_intent.succeeded', { id: 'pi_not_ours', object: 'payment_intent', metadata: {} });
    expect(await send(stray)).toEqual({ status: 200, body: { received: true } });
    expect(await billingState()).toBe(before);
    const outcomes = await t.db.query<{ outcome: string }>('SELECT outcome FROM stripe_webhook_event WHERE id = ANY($1) ORDER BY outcome', [[unknown.id, stray.id]]);
    expect(outcomes.rows.map((r) => r.outcome)).toEqual(['ignored: no invoice charged by pi_not_ours', 'ignored: not an event this server handles']);
  });

  it('forgets event ids after 30 days (the daily prune job); a newer id is kept, so its replay is still caught', async () => {
    const old = stripe.event('customer.subscription.updated', { id: 'sub_old' });
    const recent = stripe.event('customer.subscription.updated', { id: 'sub_recent' });
    expect((await send(old)).status).toBe(200);
    expect((await send(recent)).status).toBe(200);
    await t.db.query(`UPDATE stripe_webhook_event SET received_at = now() - interval '31 days' WHERE id = $1`, [old.id]);
    expect(app.billingJobs.map((j) => j.name)).toContain(STRIPE_WEBHOOK_PRUNE_JOB);
    expect(await pruneStripeWebhookEvents(app.context)).toBeGreaterThanOrEqual(1);
    const left = await t.db.query<{ id: string }>('SELECT id FROM stripe_webhook_event WHERE id = ANY($1)', [[old.id, recent.id]]);
    expect(left.rows.map((r) => r.id)).toEqual([recent.id]);
    const before = await billingState();
    expect(await send(recent)).toEqual({ status: 200, body: { received: true, duplicate: true } });
    expect(await billingState()).toBe(before);
  });

  it('an oversized body is refused with 413 before it is read', async () => {
    const big = stripe.event('payment_intent.succeeded', { id: 'pi_big', padding: 'x'.repeat(300 * 1024) });
    const res = await send(big);
    expect(res.status).toBe(413);
  });

  it('without the signing secret: 503 saying what to set; without Stripe: 404; billing off: 404', async () => {
    const event = stripe.event('payment_intent.succeeded', { id: 'pi_x' });
    const payload = JSON.stringify(event);
    const headers = { 'content-type': 'application/json', 'stripe-signature': StripeStandIn.signature(SECRET, payload) };
    const noSecret = await noSecretApp.inject({ method: 'POST', url: WEBHOOK_PATH, headers, payload });
    expect(noSecret.statusCode).toBe(503);
    expect(noSecret.json()).toBe(WEBHOOK_MESSAGES.noSecret);
    const manual = await manualApp.inject({ method: 'POST', url: WEBHOOK_PATH, headers, payload });
    expect(manual.statusCode).toBe(404);
    expect(manual.json()).toBe(WEBHOOK_MESSAGES.notStripe);
    const off = await offApp.inject({ method: 'POST', url: WEBHOOK_PATH, headers, payload });
    expect(off.statusCode).toBe(404);
    expect(off.json()).toBe(BILLING_OFF_MESSAGE);
    expect((await t.db.query('SELECT 1 FROM stripe_webhook_event WHERE id = $1', [event.id])).rowCount).toBe(0);
  });

  it('other JSON routes still parse their bodies (the raw parser is the webhook’s alone)', async () => {
    const u = await signUp(app);
    const res = await app.inject({ method: 'PATCH', url: `/billing/v1/account/${u.orgId}`, headers: { authorization: `Bearer ${u.token}` }, payload: { email: 'raw@example.com' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ email: 'raw@example.com', cc_emails: [] });
  });
});
