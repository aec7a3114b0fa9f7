import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ADMIN_CREDIT_MESSAGES, ADMIN_REASON_MAX, CAPABILITIES, CREDIT_MESSAGES, CREDIT_PURCHASE_MAX } from '@flotilla/model';
import { buildApp } from '../../../app.js';
import type { StripeProviderConfig } from '../../../infra/app/context.js';
import { addOrganizationMember, bearer, createTestDb, sdkClient, signInStaff, signUp, TEST_JWT_SECRET, type SignedUpUser } from '../../../../test/harness.js';
import { featureId, seedDefaultCatalogue, subscribe } from '../../../../test/support/billing-catalogue.js';
import { StripeStandIn } from '../../../../test/support/stripe-stand-in.js';
import { availableCredits } from './index.js';
import { spendCredits } from './credits.repository.js';

/*
 * Issue 18 (admin credits): platform administrators grant complimentary credits and refund paid
 * credit bundles and paid invoices, with the manual provider and with Stripe (the local stand-in
 * of test/support/stripe-stand-in.ts); every grant and refund is logged. The organization's
 * administrator reads the outcome through balena-sdk. Real PostgreSQL.
 */
let t: Awaited<ReturnType<typeof createTestDb>>;
const stripe = new StripeStandIn();
let app: FastifyInstance;
let stripeApp: FastifyInstance;
let offApp: FastifyInstance;
let stripeDownApp: FastifyInstance;
let apiUrl: string;
let stripeUrl: string;
let adminToken: string; // a platform administrator
let adminUsername: string;
let owner: SignedUpUser; // pilot, pays by invoice
let member: SignedUpUser; // a member of owner's organization
let other: SignedUpUser; // another organization's administrator (pilot)
let freeOwner: SignedUpUser; // free plan
let cardOwner: SignedUpUser; // pays by card (Stripe app)
let credits: number;
const ORG_NAME = `Acme Rockets ${randomBytes(3).toString('hex')}`;

const sdkAs = async (u: SignedUpUser, url = apiUrl) => {
  const sdk = sdkClient(url);
  await sdk.auth.loginWithToken(u.token);
  return sdk;
};
const counts = async () =>
  (
    await t.db.query<{ bundles: string; invoices: string; adjustments: string; refunded: string }>(
      `SELECT (SELECT count(*) FROM credit_bundle) AS bundles, (SELECT count(*) FROM invoice) AS invoices,
              (SELECT count(*) FROM credit_adjustment) AS adjustments, (SELECT count(*) FROM invoice WHERE state = 'refunded') AS refunded`,
    )
  ).rows[0];
const grant = (org: number, body: Record<string, unknown>, token = adminToken, target = () => app) =>
  target().inject({ method: 'POST', url: `/admin/v1/billing/organizations/${org}/credits`, headers: bearer(token), payload: body });
const refundBundle = (id: number, reason: unknown = 'Customer asked', token = adminToken, target = () => app) =>
  target().inject({ method: 'POST', url: `/admin/v1/billing/credit-bundles/${id}/refund`, headers: bearer(token), payload: { reason } });
const refundInvoice = (number: string, reason: unknown = 'Customer asked', token = adminToken) =>
  app.inject({ method: 'POST', url: `/admin/v1/billing/invoices/${number}/refund`, headers: bearer(token), payload: { reason } });
const markPaid = (number: string) => app.inject({ method: 'POST', url: `/admin/v1/billing/invoices/${number}/mark-paid`, headers: bearer(adminToken) });
const buy = async (u: SignedUpUser, quantity: number, url = apiUrl) =>
  (await (await sdkAs(u, url)).models.creditBundle.create(u.orgId, credits, quantity)) as unknown as { id: number; is_associated_with__invoice_id: string; payment_status: string };
const bundleOf = async (u: SignedUpUser, id: number, url = apiUrl) =>
  (await (await sdkAs(u, url)).models.creditBundle.getAllByOrg(u.orgId)).find((b) => b.id === id) as unknown as Record<string, unknown> | undefined;
const stripeConfig = (): StripeProviderConfig => ({ kind: 'stripe', secretKey: stripe.secretKey, publishableKey: 'pk_test_standin', apiUrl: stripe.url, timeoutMs: 3000 });

beforeAll(async () => {
  await stripe.start();
  t = await createTestDb();
  app = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET, billing: { enabled: true } });
  stripeApp = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET, billing: { enabled: true, provider: stripeConfig() } });
  offApp = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET });
  stripeDownApp = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET, billing: { enabled: true, provider: { ...stripeConfig(), apiUrl: 'http://127.0.0.1:9' } } });
  apiUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  stripeUrl = await stripeApp.listen({ port: 0, host: '127.0.0.1' });
  await seedDefaultCatalogue(t.db);
  credits = await featureId(t.db, CAPABILITIES.credits);
  [owner, member, other, freeOwner, cardOwner] = [await signUp(app), await signUp(app), await signUp(app), await signUp(app), await signUp(app)];
  await addOrganizationMember(t.db, member.userId, owner.orgId, 'member');
  await t.db.query('UPDATE organization SET name = $2 WHERE id = $1', [owner.orgId, ORG_NAME]);
  for (const u of [owner, other, cardOwner]) await subscribe(t.db, u.orgId, 'pilot-v2');
  await subscribe(t.db, freeOwner.orgId, 'free');
  for (const u of [owner, other, freeOwner]) {
    const res = await app.inject({ method: 'PATCH', url: `/billing/v1/account/${u.orgId}/info`, headers: bearer(u.token), payload: { token_type: 'manual', token_id: 'PO-1' } });
    expect(res.statusCode).toBe(200);
  }
  ({ token: adminToken, username: adminUsername } = await signInStaff(app, t.db));
});

afterAll(async () => {
  for (const a of [app, stripeApp, offApp, stripeDownApp]) await a?.close();
  await stripe.close();
  await t?.drop();
});

describe('granting complimentary credits', () => {
  it('writes a complimentary bundle (free, no invoice, nothing charged) that the organization’s administrator sees at once, and logs who and why', async () => {
    const before = await counts();
    const balance = await availableCredits(t.db, owner.orgId);
    const res = await grant(owner.orgId, { quantity: 25, reason: '  Onboarding goodwill  ' });
    expect(res.statusCode).toBe(201);
    const granted = res.json<{ id: number }>();
    expect(granted).toMatchObject({ belongs_to__organization: owner.orgId, original_quantity: 25, payment_status: 'complimentary', available_balance: 25 });

    const seen = await bundleOf(owner, granted.id);
    expect(seen).toMatchObject({ payment_status: 'complimentary', original_quantity: 25, unit_cost: 0, total_cost: 0, total_balance: 25, available_balance: 25, is_associated_with__invoice_id: null });
    const years = (new Date(seen!.expires_on__date as string).getTime() - Date.now()) / (365.25 * 24 * 3600 * 1000);
    expect(years).toBeGreaterThan(9.99);
    expect(await availableCredits(t.db, owner.orgId)).toBe(balance + 25);
    const after = await counts();
    expect(after!.invoices).toBe(before!.invoices);
    expect(Number(after!.adjustments)).toBe(Number(before!.adjustments) + 1);

    const log = await app.inject({ method: 'GET', url: `/admin/v1/billing/credit-adjustments?organization_id=${owner.orgId}`, headers: bearer(adminToken) });
    expect(log.statusCode).toBe(200);
    expect(log.json().adjustments[0]).toMatchObject({
      kind: 'grant',
      organization: { id: owner.orgId, name: ORG_NAME },
      administrator: { username: adminUsername },
      credit_bundle: granted.id,
      quantity: 25,
      amount_cents: 0,
      reason: 'Onboarding goodwill',
    });

    const orgs = await app.inject({ method: 'GET', url: `/admin/v1/billing/organizations?search=${encodeURIComponent(ORG_NAME.slice(0, 12))}`, headers: bearer(adminToken) });
    expect(orgs.json().organizations).toContainEqual({ id: owner.orgId, name: ORG_NAME, handle: owner.username, plan: { code: 'pilot-v2', title: 'Pilot' }, credit_balance: balance + 25 });
  });

  it.each([
    ['zero', { quantity: 0, reason: 'x' }, CREDIT_MESSAGES.quantity],
    ['a negative quantity', { quantity: -5, reason: 'x' }, CREDIT_MESSAGES.quantity],
    ['a fractional quantity', { quantity: 1.5, reason: 'x' }, CREDIT_MESSAGES.quantity],
    ['more than the purchase cap', { quantity: CREDIT_PURCHASE_MAX + 1, reason: 'x' }, CREDIT_MESSAGES.quantity],
    ['no reason', { quantity: 5, reason: '   ' }, ADMIN_CREDIT_MESSAGES.reasonRequired],
    ['a reason too long', { quantity: 5, reason: 'x'.repeat(ADMIN_REASON_MAX + 1) }, ADMIN_CREDIT_MESSAGES.reasonTooLong],
    ['a missing quantity', { reason: 'x' }, undefined],
  ])('refuses %s with 400 and writes nothing', async (_name, body, message) => {
    const before = await counts();
    const res = await grant(owner.orgId, body);
    expect(res.statusCode).toBe(400);
    if (message) expect(res.json()).toBe(message);
    expect(await counts()).toEqual(before);
  });

  it('refuses an organization whose plan has no credits (400), an unknown one (404), non-administrators (403), strangers (401) and billing off (404)', async () => {
    const before = await counts();
    const free = await grant(freeOwner.orgId, { quantity: 5, reason: 'x' });
    expect(free.statusCode).toBe(400);
    expect(free.json()).toBe(ADMIN_CREDIT_MESSAGES.planWithoutCredits('Free'));
    expect((await grant(2_000_000_000, { quantity: 5, reason: 'x' })).statusCode).toBe(404);
    for (const u of [owner, member, other]) {
      const res = await grant(owner.orgId, { quantity: 5, reason: 'x' }, u.token);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toBe('Only platform administrators may do this');
    }
    expect((await app.inject({ method: 'POST', url: `/admin/v1/billing/organizations/${owner.orgId}/credits`, payload: { quantity: 5, reason: 'x' } })).statusCode).toBe(401);
    expect((await grant(owner.orgId, { quantity: 5, reason: 'x' }, adminToken, () => offApp)).statusCode).toBe(404);
    for (const url of ['/admin/v1/billing/credit-bundles', '/admin/v1/billing/credit-adjustments', '/admin/v1/billing/organizations']) {
      expect((await app.inject({ method: 'GET', url, headers: bearer(owner.token) })).statusCode).toBe(403);
      expect((await offApp.inject({ method: 'GET', url, headers: bearer(adminToken) })).statusCode).toBe(404);
    }
    expect(await counts()).toEqual(before);
  });
});

describe('refunds with the manual provider', () => {
  it('a manually invoiced purchase is refundable once its invoice is marked paid: the bundle and invoice become refunded and its credits leave the balance', async () => {
    const bundle = await buy(owner, 10);
    expect(bundle.payment_status).toBe('manually invoiced');
    const number = bundle.is_associated_with__invoice_id;
    const pending = await refundBundle(bundle.id);
    expect(pending.statusCode).toBe(400);
    expect(pending.json()).toBe(ADMIN_CREDIT_MESSAGES.invoiceNotPaid('pending'));

    expect((await markPaid(number)).statusCode).toBe(200);
    const balance = await availableCredits(t.db, owner.orgId);
    // Neither the organization's administrator nor another organization's may refund.
    for (const u of [owner, other]) expect((await refundBundle(bundle.id, 'mine', u.token)).statusCode).toBe(403);
    expect((await refundBundle(bundle.id, '')).json()).toBe(ADMIN_CREDIT_MESSAGES.reasonRequired);
    expect(await bundleOf(owner, bundle.id)).toMatchObject({ payment_status: 'manually invoiced', available_balance: 10 });

    const res = await refundBundle(bundle.id, 'Bought by mistake');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ invoice_number: number, state: 'refunded', total_in_cents: '4000' });
    expect(await bundleOf(owner, bundle.id)).toMatchObject({ payment_status: 'refunded', total_balance: 0, available_balance: 0 });
    expect(await availableCredits(t.db, owner.orgId)).toBe(balance - 10);
    const invoices = await (await sdkAs(owner)).models.billing.getInvoices(owner.orgId);
    expect(invoices.find((i) => i.invoice_number === number)?.state).toBe('refunded');

    const log = await app.inject({ method: 'GET', url: `/admin/v1/billing/credit-adjustments?organization_id=${owner.orgId}&limit=1`, headers: bearer(adminToken) });
    expect(log.json()).toMatchObject({ adjustments: [{ kind: 'refund', credit_bundle: bundle.id, invoice_number: number, quantity: 10, amount_cents: 4000, refunded_through: 'manual', reason: 'Bought by mistake' }] });

    const before = await counts();
    for (const again of [await refundBundle(bundle.id), await refundInvoice(number)]) {
      expect(again.statusCode).toBe(400);
      expect(again.json()).toBe(ADMIN_CREDIT_MESSAGES.alreadyRefunded);
    }
    expect(await counts()).toEqual(before);
  });

  it('refuses a bundle whose credits were partly spent, a complimentary bundle and an unknown one, changing nothing', async () => {
    const bundle = await buy(owner, 10);
    expect((await markPaid(bundle.is_associated_with__invoice_id)).statusCode).toBe(200);
    // Spend everything else first, then 3 of this bundle (soonest to expire first: this one last).
    const balance = await availableCredits(t.db, owner.orgId);
    expect(await spendCredits(t.db, owner.orgId, balance - 7, new Date())).toBe(0);
    const before = await counts();
    const spent = await refundBundle(bundle.id);
    expect(spent.statusCode).toBe(400);
    expect(spent.json()).toBe(ADMIN_CREDIT_MESSAGES.creditsSpent(3, 10));
    const viaInvoice = await refundInvoice(bundle.is_associated_with__invoice_id);
    expect(viaInvoice.json()).toBe(ADMIN_CREDIT_MESSAGES.creditsSpent(3, 10));
    expect(await bundleOf(owner, bundle.id)).toMatchObject({ payment_status: 'manually invoiced', available_balance: 7 });

    const comp = (await grant(owner.orgId, { quantity: 2, reason: 'x' })).json<{ id: number }>();
    const after = await counts();
    const refused = await refundBundle(comp.id);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toBe(ADMIN_CREDIT_MESSAGES.complimentary);
    expect((await refundBundle(2_000_000_000)).statusCode).toBe(404);
    expect(await counts()).toEqual(after);
    expect(Number(after!.bundles)).toBe(Number(before!.bundles) + 1);
  });

  it('refunds a paid plan invoice (the subscription is left as it is) and refuses unpaid and unknown invoices', async () => {
    const sdk = await sdkAs(other);
    const change = (await sdk.request.send({ method: 'PATCH', url: `${apiUrl}/billing/v1/account/${other.orgId}/plan`, body: { tier: 'production', annual: false } })).body as {
      invoiceNumber: string;
    };
    const number = change.invoiceNumber;
    expect(number).toMatch(/^FLT-/);
    const open = await refundInvoice(number);
    expect(open.statusCode).toBe(400);
    expect(open.json()).toBe(ADMIN_CREDIT_MESSAGES.invoiceNotPaid('open'));
    expect((await refundInvoice('FLT-999999')).statusCode).toBe(404);
    expect((await refundInvoice(number, 'x', member.token)).statusCode).toBe(403);
    expect((await markPaid(number)).statusCode).toBe(200);
    const res = await refundInvoice(number, 'Goodwill after an outage');
    expect(res.statusCode).toBe(200);
    expect(res.json().state).toBe('refunded');
    const invoices = await sdk.models.billing.getInvoices(other.orgId);
    expect(invoices.find((i) => i.invoice_number === number)?.state).toBe('refunded');
    expect((await sdk.models.billing.getPlan(other.orgId)).code).toBe('production-v2');
    // Another organization's administrator reads none of it.
    expect((await app.inject({ method: 'GET', url: `/billing/v1/account/${other.orgId}/invoices`, headers: bearer(owner.token) })).statusCode).toBe(404);
  });
});

describe('listing bundles for the administrator', () => {
  it('filters by organization name, pages, and is bounded', async () => {
    const res = await app.inject({ method: 'GET', url: `/admin/v1/billing/credit-bundles?organization=${encodeURIComponent(ORG_NAME.toLowerCase())}&limit=2`, headers: bearer(adminToken) });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ total: number; bundles: { organization: { id: number }; invoice: unknown; payment_status: string }[] }>();
    expect(body.bundles).toHaveLength(2);
    expect(body.total).toBe((await t.db.query('SELECT 1 FROM credit_bundle WHERE belongs_to__organization = $1', [owner.orgId])).rowCount);
    expect(body.bundles.every((b) => b.organization.id === owner.orgId)).toBe(true);
    const page2 = await app.inject({ method: 'GET', url: `/admin/v1/billing/credit-bundles?organization_id=${owner.orgId}&limit=2&offset=2`, headers: bearer(adminToken) });
    expect(page2.json().bundles.length).toBeGreaterThan(0);
    const refunded = (await app.inject({ method: 'GET', url: `/admin/v1/billing/credit-bundles?organization_id=${owner.orgId}&limit=100`, headers: bearer(adminToken) })).json().bundles.find(
      (b: { payment_status: string }) => b.payment_status === 'refunded',
    );
    expect(refunded.invoice).toMatchObject({ state: 'refunded', total_in_cents: 4000 });
    expect((await app.inject({ method: 'GET', url: '/admin/v1/billing/credit-bundles?organization=%25_nobody_%25', headers: bearer(adminToken) })).json()).toEqual({ total: 0, bundles: [] });
    for (const q of ['limit=101', 'limit=0', 'offset=-1', `organization=${'x'.repeat(101)}`]) {
      expect((await app.inject({ method: 'GET', url: `/admin/v1/billing/credit-bundles?${q}`, headers: bearer(adminToken) })).statusCode).toBe(400);
    }
  });
});

describe('refunds with Stripe', () => {
  it('refunds a card-paid purchase through its payment intent; the bundle is refunded and its credits removed', async () => {
    const sdk = await sdkAs(cardOwner, stripeUrl);
    const intent = await sdk.models.billing.createSetupIntent({ organization: cardOwner.orgId, 'g-recaptcha-response': 'dummy' });
    stripe.completeSetup(intent.id);
    await sdk.models.billing.updateBillingInfo(cardOwner.orgId, { token_type: 'setup_intent', token_id: intent.id } as never);
    const bundle = await buy(cardOwner, 5, stripeUrl);
    expect(bundle.payment_status).toBe('paid');
    const reference = (await t.db.query<{ provider_reference: string }>('SELECT provider_reference FROM invoice WHERE invoice_number = $1', [bundle.is_associated_with__invoice_id])).rows[0]!
      .provider_reference;
    expect(reference).toMatch(/^pi_/);
    expect(await availableCredits(t.db, cardOwner.orgId)).toBe(5);

    const res = await refundBundle(bundle.id, 'Card charged twice', adminToken, () => stripeApp);
    expect(res.statusCode).toBe(200);
    expect(stripe.refunds).toContainEqual(expect.objectContaining({ payment_intent: reference, amount: 2000 }));
    const refundRequest = stripe.requests.find((r) => r.path === '/v1/refunds');
    expect(refundRequest?.idempotencyKey).toBe(`flotilla-refund-${reference}-2000`);
    expect(await bundleOf(cardOwner, bundle.id, stripeUrl)).toMatchObject({ payment_status: 'refunded', available_balance: 0 });
    expect(await availableCredits(t.db, cardOwner.orgId)).toBe(0);
    const log = await stripeApp.inject({ method: 'GET', url: `/admin/v1/billing/credit-adjustments?organization_id=${cardOwner.orgId}`, headers: bearer(adminToken) });
    expect(log.json().adjustments[0]).toMatchObject({ kind: 'refund', refunded_through: 'stripe', amount_cents: 2000, reason: 'Card charged twice' });

    const refundsBefore = stripe.refunds.length;
    expect((await refundBundle(bundle.id, 'again', adminToken, () => stripeApp)).statusCode).toBe(400);
    expect(stripe.refunds).toHaveLength(refundsBefore);
  });

  it('a refund Stripe refuses or cannot take is a 4xx/503 with the reason, and nothing is recorded', async () => {
    const bundle = await buy(cardOwner, 3, stripeUrl);
    expect(bundle.payment_status).toBe('paid');
    const number = bundle.is_associated_with__invoice_id;
    const stateOf = async () => ({
      bundle: await bundleOf(cardOwner, bundle.id, stripeUrl),
      invoice: (await t.db.query('SELECT state, refunded_at FROM invoice WHERE invoice_number = $1', [number])).rows[0],
      counts: await counts(),
      refunds: stripe.refunds.length,
    });
    const before = await stateOf();
    expect(before.bundle).toMatchObject({ payment_status: 'paid', available_balance: 3 });

    const down = await refundBundle(bundle.id, 'x', adminToken, () => stripeDownApp);
    expect(down.statusCode).toBe(503);
    expect(await stateOf()).toEqual(before);

    // A payment intent Stripe does not know (deleted in its dashboard): Stripe answers 404.
    const { rows } = await t.db.query<{ provider_reference: string }>('SELECT provider_reference FROM invoice WHERE invoice_number = $1', [number]);
    await t.db.query('UPDATE invoice SET provider_reference = $2 WHERE invoice_number = $1', [number, 'pi_unknown']);
    const refused = await stripeApp.inject({ method: 'POST', url: `/admin/v1/billing/invoices/${number}/refund`, headers: bearer(adminToken), payload: { reason: 'x' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatch(/^The payment provider refused the refund: /);
    expect(await stateOf()).toEqual(before);
    await t.db.query('UPDATE invoice SET provider_reference = $2 WHERE invoice_number = $1', [number, rows[0]!.provider_reference]);
    const viaStripe = await stripeApp.inject({ method: 'POST', url: `/admin/v1/billing/invoices/${number}/refund`, headers: bearer(adminToken), payload: { reason: 'x' } });
    expect(viaStripe.statusCode).toBe(200);
    expect(stripe.refunds.length).toBe(before.refunds + 1);
  });
});
