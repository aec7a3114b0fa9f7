import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { BILLING_MESSAGES } from '@flotilla/model';
import { NO_BILLING_ACCESS_MESSAGE } from '../access.js';
import { buildApp } from '../../../app.js';
import { addOrganizationMember, bearer, createTestDb, sdkClient, signUp, TEST_JWT_SECRET, type SignedUpUser } from '../../../../test/harness.js';

/*
 * Issue 18 item 5 with the manual provider (the default): the billing account (email, cc
 * emails, company name), setting up payment by invoice with the billing address, removing it,
 * setup intents refused, and who may do it. balena-sdk `models.billing` against real PostgreSQL.
 */
let t: Awaited<ReturnType<typeof createTestDb>>;
let app: FastifyInstance;
let offApp: FastifyInstance;
let apiUrl: string;
let admin: SignedUpUser;
let member: SignedUpUser;
let stranger: SignedUpUser;

const sdkAs = async (u: SignedUpUser) => {
  const sdk = sdkClient(apiUrl);
  await sdk.auth.loginWithToken(u.token);
  return sdk;
};
const accountRow = async (orgId: number) =>
  (await t.db.query<{ email: string | null; cc_emails: string[]; billing_info: unknown }>('SELECT email, cc_emails, billing_info FROM billing_account WHERE organization = $1', [orgId])).rows[0];

beforeAll(async () => {
  t = await createTestDb();
  app = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET, billing: { enabled: true } });
  offApp = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET });
  await app.listen({ port: 0, host: '127.0.0.1' });
  apiUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  admin = await signUp(app);
  member = await signUp(app);
  stranger = await signUp(app);
  await addOrganizationMember(t.db, member.userId, admin.orgId, 'member');
});

afterAll(async () => {
  await app?.close();
  await offApp?.close();
  await t?.drop();
});

describe('billing account', () => {
  it('starts with the first administrator’s email and no cc; updateAccountInfo changes them', async () => {
    const sdk = await sdkAs(admin);
    const before = await sdk.models.billing.getAccount(admin.orgId);
    expect(before).toMatchObject({ email: admin.email, cc_emails: [], account_state: 'active', company_name: null, tax_id: null });
    expect(before.address).toMatchObject({ address1: null, city: null, country: null });
    await sdk.models.billing.updateAccountInfo(admin.orgId, { email: 'accounts@example.com', cc_emails: ['cfo@example.com', 'ops@example.com'] } as never);
    expect(await sdk.models.billing.getAccount(admin.orgId)).toMatchObject({ email: 'accounts@example.com', cc_emails: ['cfo@example.com', 'ops@example.com'] } as never);
  });

  it.each([
    ['no email', { email: '' }, BILLING_MESSAGES.invalidEmail],
    ['a bad email', { email: 'not-an-address' }, BILLING_MESSAGES.invalidEmail],
    ['a bad cc email', { email: 'ok@example.com', cc_emails: ['fine@example.com', 'nope'] }, BILLING_MESSAGES.invalidCcEmail('nope')],
    ['11 cc emails', { email: 'ok@example.com', cc_emails: Array.from({ length: 11 }, (_, i) => `cc${i}@example.com`) }, BILLING_MESSAGES.tooManyCcEmails],
  ])('refuses %s with 400 and writes nothing', async (_label, body, message) => {
    const before = await accountRow(admin.orgId);
    const res = await app.inject({ method: 'PATCH', url: `/billing/v1/account/${admin.orgId}`, headers: bearer(admin.token), payload: body });
    expect(res.statusCode, res.body).toBe(400);
    if (message) expect(res.json()).toBe(message);
    expect(await accountRow(admin.orgId)).toEqual(before);
  });

  it('refuses an unbounded body (schema) with 400', async () => {
    const res = await app.inject({ method: 'PATCH', url: `/billing/v1/account/${admin.orgId}`, headers: bearer(admin.token), payload: { email: `${'a'.repeat(300)}@example.com` } });
    expect(res.statusCode).toBe(400);
  });

  it('company_name is written by administrators through the data API, bounded, and shown in the account', async () => {
    const sdk = await sdkAs(admin);
    // What the dashboard does before payment setup (spec 3 §4 step 1).
    await sdk.pine.patch({ resource: 'organization', id: admin.orgId, body: { company_name: 'Analytical Engines Ltd' } });
    expect((await sdk.models.billing.getAccount(admin.orgId)).company_name).toBe('Analytical Engines Ltd');
    const tooLong = await app.inject({ method: 'PATCH', url: `/v7/organization(${admin.orgId})`, headers: bearer(admin.token), payload: { company_name: 'x'.repeat(201) } });
    expect(tooLong.statusCode).toBe(400);
    const byMember = await app.inject({ method: 'PATCH', url: `/v7/organization(${admin.orgId})`, headers: bearer(member.token), payload: { company_name: 'Hijacked' } });
    // The data API's answer to a PATCH matching no row the caller may change: nothing changes.
    expect(byMember.statusCode).toBe(200);
    expect((await sdk.models.billing.getAccount(admin.orgId)).company_name).toBe('Analytical Engines Ltd');
  });
});

describe('payment by invoice (the manual provider)', () => {
  it('has no payment method at first: {}', async () => {
    const sdk = await sdkAs(stranger);
    expect(await sdk.models.billing.getBillingInfo(stranger.orgId)).toEqual({});
  });

  it('sets up with token_type manual and the billing address, company and VAT number; getBillingInfo shows them', async () => {
    const sdk = await sdkAs(admin);
    await sdk.models.billing.updateBillingInfo(admin.orgId, {
      token_type: 'manual',
      token_id: 'PO-2026-17',
      company: 'Analytical Engines Ltd',
      full_name: 'Ada Lovelace',
      address1: '1 Analytical Way',
      city: 'London',
      zip: 'N1 1AA',
      country: 'GB',
      vat_number: 'GB123456789',
    } as never);
    expect(await sdk.models.billing.getBillingInfo(admin.orgId)).toMatchObject({
      type: 'manual',
      company: 'Analytical Engines Ltd',
      full_name: 'Ada Lovelace',
      address1: '1 Analytical Way',
      city: 'London',
      zip: 'N1 1AA',
      country: 'GB',
      vat_number: 'GB123456789',
    });
    const account = await sdk.models.billing.getAccount(admin.orgId);
    expect(account.address).toMatchObject({ address1: '1 Analytical Way', city: 'London', country: 'GB' });
    expect(account.tax_id).toEqual({ type: 'vat', value: 'GB123456789' });
  });

  it('refuses a card token and a setup intent (no card setup on this server), writing nothing', async () => {
    const before = await accountRow(admin.orgId);
    const card = await app.inject({ method: 'PATCH', url: `/billing/v1/account/${admin.orgId}/info`, headers: bearer(admin.token), payload: { token_type: 'setup_intent', token_id: 'seti_1' } });
    expect(card.statusCode).toBe(400);
    expect(card.json()).toBe(BILLING_MESSAGES.manualTokenOnly);
    const intent = await app.inject({ method: 'POST', url: `/billing/v1/account/${admin.orgId}/setup-intent`, headers: bearer(admin.token), payload: { 'g-recaptcha-response': 'x' } });
    expect(intent.statusCode).toBe(400);
    expect(intent.json()).toBe(BILLING_MESSAGES.manualSetupNotNeeded);
    expect(await accountRow(admin.orgId)).toEqual(before);
  });

  it('removeBillingInfo removes it', async () => {
    const sdk = await sdkAs(admin);
    await sdk.models.billing.removeBillingInfo(admin.orgId);
    expect(await sdk.models.billing.getBillingInfo(admin.orgId)).toEqual({});
  });
});

describe('who may', () => {
  const calls = (orgId: number) => [
    { method: 'GET' as const, url: `/billing/v1/account/${orgId}` },
    { method: 'PATCH' as const, url: `/billing/v1/account/${orgId}`, payload: { email: 'evil@example.com' } },
    { method: 'GET' as const, url: `/billing/v1/account/${orgId}/info` },
    { method: 'PATCH' as const, url: `/billing/v1/account/${orgId}/info`, payload: { token_type: 'manual', token_id: 'x' } },
    { method: 'DELETE' as const, url: `/billing/v1/account/${orgId}/info` },
    { method: 'POST' as const, url: `/billing/v1/account/${orgId}/setup-intent`, payload: {} },
  ];

  it('a member without billing access gets 403, another organization’s user 404, nobody 401, billing off 404; nothing is written', async () => {
    await app.inject({ method: 'PATCH', url: `/billing/v1/account/${admin.orgId}`, headers: bearer(admin.token), payload: { email: 'accounts@example.com' } });
    const before = await accountRow(admin.orgId);
    for (const call of calls(admin.orgId)) {
      const asMember = await app.inject({ ...call, headers: bearer(member.token) });
      expect(asMember.statusCode, `${call.method} ${call.url}`).toBe(403);
      expect(asMember.json()).toBe(NO_BILLING_ACCESS_MESSAGE);
      expect((await app.inject({ ...call, headers: bearer(stranger.token) })).statusCode).toBe(404);
      expect((await app.inject({ ...call })).statusCode).toBe(401);
      expect((await offApp.inject({ ...call, headers: bearer(admin.token) })).statusCode).toBe(404);
    }
    expect(await accountRow(admin.orgId)).toEqual(before);
  });
});
