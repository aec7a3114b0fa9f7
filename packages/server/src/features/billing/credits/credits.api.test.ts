import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { BILLING_MESSAGES, CAPABILITIES, CREDIT_MESSAGES, CREDIT_PURCHASE_MAX, deviceFeature } from '@flotilla/model';
import { buildApp } from '../../../app.js';
import { Mailer } from '../../../infra/mail/mailer.js';
import { addOrganizationMember, bearer, createTestDb, sdkClient, signUp, TEST_JWT_SECRET, type SignedUpUser } from '../../../../test/harness.js';
import { featureId, seedDefaultCatalogue, subscribe } from '../../../../test/support/billing-catalogue.js';
import { SmtpInbox } from '../../../../test/support/smtp-inbox.js';
import { availableCredits, CREDIT_NOTIFICATION_JOB } from './index.js';

/*
 * Issue 18 item 7 (server) with the manual provider: buying credits (balena-sdk
 * `models.creditBundle`) is priced from the plan's credits add-on, manually invoiced with a
 * credits invoice; bad purchases are refused with nothing written; another organization's
 * bundles are unreadable; the low-credit notification mails the billing contacts once per dip
 * (a real SMTP server). Real PostgreSQL.
 */
let t: Awaited<ReturnType<typeof createTestDb>>;
const inbox = new SmtpInbox();
let app: FastifyInstance;
let offApp: FastifyInstance;
let apiUrl: string;
let admin: SignedUpUser;
let member: SignedUpUser;
let stranger: SignedUpUser;
let freeAdmin: SignedUpUser;
let noMethodAdmin: SignedUpUser;
let credits: number;
const PILOT_CREDIT_CENTS = 400;

const sdkAs = async (u: SignedUpUser) => {
  const sdk = sdkClient(apiUrl);
  await sdk.auth.loginWithToken(u.token);
  return sdk;
};
const counts = async () => {
  const { rows } = await t.db.query<{ bundles: string; invoices: string }>(
    'SELECT (SELECT count(*) FROM credit_bundle) AS bundles, (SELECT count(*) FROM invoice) AS invoices',
  );
  return rows[0];
};
const setUpInvoicePayment = (u: SignedUpUser) =>
  app.inject({ method: 'PATCH', url: `/billing/v1/account/${u.orgId}/info`, headers: bearer(u.token), payload: { token_type: 'manual', token_id: 'PO-1', company: 'Acme' } });
const runNotificationJob = () => app.billingJobs.find((j) => j.name === CREDIT_NOTIFICATION_JOB)!.run({});

beforeAll(async () => {
  t = await createTestDb();
  await inbox.start();
  const mailer = new Mailer({ db: t.db, smtpUrl: inbox.url, publicUrl: 'http://dashboard.test:8080' });
  app = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET, mailer, billing: { enabled: true } });
  offApp = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET });
  await app.listen({ port: 0, host: '127.0.0.1' });
  apiUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  await seedDefaultCatalogue(t.db);
  credits = await featureId(t.db, CAPABILITIES.credits);
  [admin, member, stranger, freeAdmin, noMethodAdmin] = [await signUp(app), await signUp(app), await signUp(app), await signUp(app), await signUp(app)];
  await addOrganizationMember(t.db, member.userId, admin.orgId, 'member');
  for (const u of [admin, stranger, noMethodAdmin]) await subscribe(t.db, u.orgId, 'pilot-v2');
  await subscribe(t.db, freeAdmin.orgId, 'free');
  for (const u of [admin, stranger, freeAdmin]) expect((await setUpInvoicePayment(u)).statusCode).toBe(200);
});

afterAll(async () => {
  await app?.close();
  await offApp?.close();
  await inbox.close();
  await t?.drop();
});

describe('buying credits with payment by invoice', () => {
  it('is manually invoiced: priced from the plan, the credits available at once, a credits invoice linked, expiring in 10 years', async () => {
    const sdk = await sdkAs(admin);
    const bundle = (await sdk.models.creditBundle.create(admin.orgId, credits, 10)) as unknown as Record<string, unknown>;
    expect(bundle).toMatchObject({
      payment_status: 'manually invoiced',
      original_quantity: 10,
      unit_cost: PILOT_CREDIT_CENTS,
      total_cost: 10 * PILOT_CREDIT_CENTS,
      total_balance: 10,
      available_balance: 10,
      error_message: null,
    });
    expect(bundle.is_associated_with__invoice_id).toMatch(/^FLT-\d{6}$/);
    const years = (new Date(bundle.expires_on__date as string).getTime() - Date.now()) / (365.25 * 24 * 3600 * 1000);
    expect(years).toBeGreaterThan(9.99);
    expect(years).toBeLessThan(10.01);
    const invoice = (
      await t.db.query<{ kind: string; state: string; total_in_cents: number; organization: number }>(
        'SELECT kind, state, total_in_cents, organization FROM invoice WHERE invoice_number = $1',
        [bundle.is_associated_with__invoice_id],
      )
    ).rows[0];
    expect(invoice).toEqual({ kind: 'credits', state: 'pending', total_in_cents: 4000, organization: admin.orgId });
    const all = await sdk.models.creditBundle.getAllByOrg(admin.orgId, { $expand: { is_created_by__user: { $select: 'username' } } });
    expect(all).toHaveLength(1);
    expect((all[0] as unknown as { is_created_by__user: { username: string }[] }).is_created_by__user[0]!.username).toBe(admin.username);
    expect(await availableCredits(t.db, admin.orgId)).toBe(10);
  });

  it('another organization’s users and its members without billing access read none of its bundles', async () => {
    for (const u of [stranger, member]) {
      const sdk = await sdkAs(u);
      expect(await sdk.models.creditBundle.getAllByOrg(u === member ? admin.orgId : stranger.orgId)).toHaveLength(0);
      const direct = await app.inject({ method: 'GET', url: `/v7/credit_bundle?$filter=belongs_to__organization eq ${admin.orgId}`, headers: bearer(u.token) });
      expect(direct.json().d).toEqual([]);
    }
  });

  const post = (u: SignedUpUser, body: Record<string, unknown>, target = () => app) =>
    target().inject({ method: 'POST', url: '/v7/credit_bundle', headers: bearer(u.token), payload: { belongs_to__organization: u.orgId, is_for__feature: credits, original_quantity: 1, ...body } });

  it.each([
    ['a negative quantity', () => post(admin, { original_quantity: -5 }), 400, CREDIT_MESSAGES.quantity],
    ['zero', () => post(admin, { original_quantity: 0 }), 400, CREDIT_MESSAGES.quantity],
    ['a fractional quantity', () => post(admin, { original_quantity: 1.5 }), 400, undefined],
    ['over the cap', () => post(admin, { original_quantity: CREDIT_PURCHASE_MAX + 1 }), 400, undefined],
    ['a total at the contact-sales threshold', () => post(admin, { original_quantity: 250_000 }), 400, CREDIT_MESSAGES.contactSales],
    ['another feature', async () => post(admin, { is_for__feature: await featureId(t.db, deviceFeature('microservices-v1')) }), 400, CREDIT_MESSAGES.notTheCreditsFeature],
    ['a plan without credits', () => post(freeAdmin, {}), 400, CREDIT_MESSAGES.planWithoutCredits],
    ['no payment method', () => post(noMethodAdmin, {}), 400, BILLING_MESSAGES.noPaymentMethod],
    ['another organization', () => post(admin, { belongs_to__organization: stranger.orgId }), 401, undefined],
    ['a member without billing access', () => post(member, { belongs_to__organization: admin.orgId }), 401, undefined],
    ['billing off', () => post(admin, {}, () => offApp), 404, 'Billing is not enabled on this server'],
  ])('refuses %s, writing and charging nothing', async (_label, send, status, message) => {
    const before = await counts();
    const res = await send();
    expect(res.statusCode, res.body).toBe(status);
    if (message) expect(res.json()).toBe(message);
    expect(await counts()).toEqual(before);
  });

  it('nobody edits or deletes a bundle', async () => {
    const id = (await t.db.query<{ id: number }>('SELECT id FROM credit_bundle WHERE belongs_to__organization = $1', [admin.orgId])).rows[0]!.id;
    const patch = await app.inject({ method: 'PATCH', url: `/v7/credit_bundle(${id})`, headers: bearer(admin.token), payload: { original_quantity: 1000 } });
    expect(patch.statusCode).toBeGreaterThanOrEqual(400);
    const del = await app.inject({ method: 'DELETE', url: `/v7/credit_bundle(${id})`, headers: bearer(admin.token) });
    expect(del.statusCode).toBeGreaterThanOrEqual(400);
    expect((await t.db.query('SELECT original_quantity FROM credit_bundle WHERE id = $1', [id])).rows[0]).toEqual({ original_quantity: 10 });
  });
});

describe('the low-credit notification', () => {
  const BILLING_EMAIL = `billing-${Date.now()}@example.com`;
  const CC = `cfo-${Date.now()}@example.com`;
  let notificationId: number;

  it('is created, changed and deleted by billing-access users only, with a bounded threshold', async () => {
    await app.inject({ method: 'PATCH', url: `/billing/v1/account/${admin.orgId}`, headers: bearer(admin.token), payload: { email: BILLING_EMAIL, cc_emails: [CC] } });
    const body = { organization: admin.orgId, owns_credit_notification_for__feature: credits, is_sent_when_below__threshold: 5 };
    const byMember = await app.inject({ method: 'POST', url: '/v7/organization_credit_notification', headers: bearer(member.token), payload: body });
    expect(byMember.statusCode).toBe(401);
    const negative = await app.inject({ method: 'POST', url: '/v7/organization_credit_notification', headers: bearer(admin.token), payload: { ...body, is_sent_when_below__threshold: -1 } });
    expect(negative.statusCode).toBe(400);
    expect(negative.json()).toBe(CREDIT_MESSAGES.threshold);
    const sdk = await sdkAs(admin);
    const created = (await sdk.pine.post({ resource: 'organization_credit_notification', body })) as { id: number };
    notificationId = created.id;
    const strangerSdk = await sdkAs(stranger);
    expect(await strangerSdk.pine.get({ resource: 'organization_credit_notification', options: { $filter: { organization: admin.orgId } } })).toEqual([]);
    const fresh = (await sdk.pine.post({ resource: 'organization_credit_notification', body: { ...body, organization: admin.orgId, is_sent_when_below__threshold: 1 } }).catch((e: { statusCode?: number }) => e)) as { statusCode?: number };
    expect(fresh.statusCode).toBe(409);
  });

  it('mails the billing contacts once when the balance falls below the threshold, and again only after it was back above', async () => {
    const sdk = await sdkAs(admin);
    const mailsTo = (a: string) => inbox.to(a).filter((m) => m.text.includes('are running low'));
    await runNotificationJob(); // 10 credits, threshold 5: nothing
    expect(mailsTo(BILLING_EMAIL)).toHaveLength(0);

    await sdk.pine.patch({ resource: 'organization_credit_notification', id: notificationId, body: { is_sent_when_below__threshold: 50 } });
    await runNotificationJob();
    const first = await inbox.nth(BILLING_EMAIL, 1);
    expect(first.text).toContain('10 device credits left');
    expect(first.text).toContain(`http://dashboard.test:8080/orgs/${admin.orgId}/credits`);
    await inbox.nth(CC, 1);
    await runNotificationJob();
    await runNotificationJob();
    await new Promise((r) => setTimeout(r, 300));
    expect(mailsTo(BILLING_EMAIL)).toHaveLength(1);
    expect(mailsTo(CC)).toHaveLength(1);

    await sdk.models.creditBundle.create(admin.orgId, credits, 100); // 110 ≥ 50: re-armed, no mail
    await runNotificationJob();
    expect((await t.db.query('SELECT is_notified FROM organization_credit_notification WHERE id = $1', [notificationId])).rows[0]).toEqual({ is_notified: false });
    await sdk.pine.patch({ resource: 'organization_credit_notification', id: notificationId, body: { is_sent_when_below__threshold: 200 } });
    await runNotificationJob();
    const second = await inbox.nth(BILLING_EMAIL, 2);
    expect(second.text).toContain('110 device credits left');
    await new Promise((r) => setTimeout(r, 300));
    expect(mailsTo(BILLING_EMAIL)).toHaveLength(2);
  });

  it('the organization expands its credit bundles and notification (spec 3 §7)', async () => {
    const sdk = await sdkAs(admin);
    const org = (await sdk.models.organization.get(admin.orgId, {
      $select: 'id',
      $expand: { owns__credit_bundle: { $select: ['original_quantity', 'payment_status'] }, organization_credit_notification: { $select: 'is_sent_when_below__threshold' } },
    } as never)) as unknown as { owns__credit_bundle: { original_quantity: number }[]; organization_credit_notification: { is_sent_when_below__threshold: number }[] };
    expect(org.owns__credit_bundle.map((b) => b.original_quantity).sort((x, y) => x - y)).toEqual([10, 100]);
    expect(org.organization_credit_notification).toEqual([{ is_sent_when_below__threshold: 200 }]);
    const asMember = (await (await sdkAs(member)).models.organization.get(admin.orgId, { $select: 'id', $expand: { owns__credit_bundle: { $select: 'id' } } } as never)) as unknown as {
      owns__credit_bundle: unknown[];
    };
    expect(asMember.owns__credit_bundle).toEqual([]);
  });

  it('is turned off by deleting it', async () => {
    const sdk = await sdkAs(admin);
    await sdk.pine.delete({ resource: 'organization_credit_notification', id: notificationId });
    expect(await sdk.pine.get({ resource: 'organization_credit_notification', options: { $filter: { organization: admin.orgId } } })).toEqual([]);
  });
});
