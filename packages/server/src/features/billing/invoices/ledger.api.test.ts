import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { PDFParse } from 'pdf-parse';
import { DEFAULT_CATALOGUE, pastDueStage, type Catalogue } from '@flotilla/model';
import { buildApp } from '../../../app.js';
import type { PoolDb } from '../../../infra/db/db.js';
import { Mailer } from '../../../infra/mail/mailer.js';
import { addOrganizationMember, bearer, createTestDb, sdkClient, type SignedUpUser, signInStaff, signUp, TEST_JWT_SECRET } from '../../../../test/harness.js';
import { deviceTypeId, insertDevice } from '../../../../test/support/fleet-helpers.js';
import { eventually } from '../../../../test/support/cloud-link.js';
import { SmtpInbox, type ReceivedMail } from '../../../../test/support/smtp-inbox.js';
import { insertInvoice, type InvoiceInput } from './invoice.repository.js';
import { closeDuePeriods, FROZEN_ORGANIZATION_MESSAGE, INVOICE_DUE_DAYS, INVOICE_NOT_AVAILABLE_MESSAGE, issueInvoiceMail, recomputePastDue } from './index.js';
import { recordAllUsage } from '../usage/index.js';

/*
 * Issue 18 items 3, 4, 6 (the ledger slice): invoices and their PDFs through balena-sdk, the
 * usage ledger, the period close, the past-due timeline on the app's clock, frozen
 * organizations refused writes. Real PostgreSQL, the real balena-sdk over HTTP, a real SMTP
 * server in-process, the manual payment provider.
 */

const DAY = 24 * 60 * 60 * 1000;
let nowMs = Date.now();
const clock = () => nowMs;

const SELLER: NonNullable<Catalogue['seller']> = { name: 'Harbour Devices Ltd', address: ['1 Quay Street', 'Portsmouth PO1 1AA'], email: 'billing@harbour.test', vatNumber: 'GB123456789' };
const INSTRUCTIONS = 'Bank transfer to IBAN GB00 TEST 0000 0000 0000 00';

let t: Awaited<ReturnType<typeof createTestDb>>;
let db: PoolDb;
let app: FastifyInstance;
let offApp: FastifyInstance;
let apiUrl: string;
const inbox = new SmtpInbox();

let owner: SignedUpUser; // administrator of org A
let member: SignedUpUser; // plain member of org A
let other: SignedUpUser; // administrator of org B
let adminToken: string; // platform administrator

beforeAll(async () => {
  t = await createTestDb();
  db = t.db;
  await inbox.start();
  const mailer = new Mailer({ db, smtpUrl: inbox.url, publicUrl: 'http://dashboard.test:8080' });
  app = await buildApp({
    db,
    jwtSecret: TEST_JWT_SECRET,
    mailer,
    clock,
    billing: { enabled: true, catalogue: { ...DEFAULT_CATALOGUE, seller: SELLER }, provider: { kind: 'manual', instructions: INSTRUCTIONS } },
  });
  offApp = await buildApp({ db, jwtSecret: TEST_JWT_SECRET });
  apiUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  await seedCatalogue();
  owner = await signUp(app);
  member = await signUp(app);
  other = await signUp(app);
  await addOrganizationMember(db, member.userId, owner.orgId, 'member');
  adminToken = (await signInStaff(app, db)).token;
  await subscribe(owner.orgId, 'prototype-v2', new Date(nowMs + 20 * DAY));
  await subscribe(other.orgId, 'prototype-v2', new Date(nowMs + 20 * DAY));
});

afterAll(async () => {
  await app.close();
  await offApp.close();
  await inbox.close();
  await t.drop();
});

/** The catalogue rows (the plans slice seeds them at start; here only what is missing). */
async function seedCatalogue() {
  for (const f of DEFAULT_CATALOGUE.features) {
    await db.query('INSERT INTO feature (title, slug, billing_code) VALUES ($1, $2, $3) ON CONFLICT (slug) DO NOTHING', [f.title, f.slug, f.billingCode ?? null]);
  }
  for (const [i, p] of DEFAULT_CATALOGUE.plans.entries()) {
    await db.query(
      `INSERT INTO plan (title, billing_code, monthly_price, annual_price, can_self_serve, support_tier, position) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (billing_code) DO NOTHING`,
      [p.title, p.code, p.monthlyPrice, p.annualPrice, p.canSelfServe, p.supportTier, i],
    );
    for (const [slug, q] of Object.entries(p.includes)) {
      await db.query(
        `INSERT INTO plan_feature (plan, feature, quantity) SELECT p.id, f.id, $3 FROM plan p, feature f WHERE p.billing_code = $1 AND f.slug = $2 ON CONFLICT DO NOTHING`,
        [p.code, slug, q],
      );
    }
    for (const [slug, price] of Object.entries(p.addons)) {
      await db.query(
        `INSERT INTO plan_addon (plan, feature, base_price) SELECT p.id, f.id, $3 FROM plan p, feature f WHERE p.billing_code = $1 AND f.slug = $2 ON CONFLICT DO NOTHING`,
        [p.code, slug, price],
      );
    }
  }
}

/** The organization's active subscription: `code`, monthly, its period ending at `end`. */
async function subscribe(orgId: number, code: string, end: Date) {
  await db.query('UPDATE subscription SET is_active = false WHERE is_for__organization = $1', [orgId]);
  await db.query(
    `INSERT INTO subscription (is_for__organization, is_for__plan, billing_cycle, starts_on__date, current_period_ends_on__date)
     SELECT $1, id, 'monthly', $3, $3 FROM plan WHERE billing_code = $2`,
    [orgId, code, end],
  );
  await db.query(`UPDATE subscription SET starts_on__date = $2::timestamptz - interval '1 month' WHERE is_for__organization = $1 AND is_active`, [orgId, end]);
}

async function invoice(orgId: number, extra: Partial<InvoiceInput> = {}) {
  return insertInvoice(db, {
    organization: orgId,
    kind: 'fee',
    state: 'open',
    issuedAt: new Date(nowMs),
    dueOn: new Date(nowMs + INVOICE_DUE_DAYS * DAY),
    lines: [
      { code: 'device:legacy-v1', description: 'Legacy devices beyond the plan', quantity: 3, unitCostCents: 200 },
      { code: 'prototype-v2', description: 'Prototype plan (monthly)', quantity: 1, unitCostCents: 9900 },
    ],
    billedTo: { company: 'Acme Robotics GmbH', address: ['Hauptstrasse 5', '10115 Berlin', 'DE'], vat_number: 'DE999999999', email: 'ap@acme.test' },
    ...extra,
  });
}

async function sdkAs(token: string) {
  const sdk = sdkClient(apiUrl);
  await sdk.auth.loginWithToken(token);
  return sdk;
}

async function pdfText(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
  const buf = Buffer.concat(chunks);
  expect(buf.subarray(0, 5).toString()).toBe('%PDF-');
  const parser = new PDFParse({ data: new Uint8Array(buf) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

/** The mail to `address` about invoice `number` (sign-up sends others first). */
async function invoiceMail(address: string, number: string): Promise<ReceivedMail> {
  const found = await eventually(
    async () => inbox.to(address).filter((m) => m.text.includes(`Invoice ${number}`)),
    (l) => l.length > 0,
    20_000,
  );
  return found[0]!;
}

const get = (token: string, url: string) => app.inject({ method: 'GET', url, headers: bearer(token) });

describe('invoices through balena-sdk', () => {
  it('lists the organization’s invoices newest first and downloads one as a PDF carrying seller, billed-to, number, lines, total and payment instructions', async () => {
    const first = await invoice(owner.orgId);
    const second = await invoice(owner.orgId, { lines: [{ code: 'member:developer', description: 'Developer seats', quantity: 2, unitCostCents: 4900 }] });
    const sdk = await sdkAs(owner.token);
    const list = await sdk.models.billing.getInvoices(owner.orgId);
    const numbers = list.map((i) => i.invoice_number);
    expect(numbers.indexOf(second.invoice_number)).toBeLessThan(numbers.indexOf(first.invoice_number));
    expect(list.find((i) => i.invoice_number === first.invoice_number)).toMatchObject({
      uuid: first.uuid,
      state: 'open',
      currency: 'USD',
      total_in_cents: '10500',
      subtotal_in_cents: '10500',
      due_on: first.due_on!.toISOString(),
    });
    expect(first.invoice_number).toMatch(/^FLT-\d{6}$/);

    const text = await pdfText((await sdk.models.billing.downloadInvoice(owner.orgId, first.invoice_number)) as unknown as Readable);
    expect(text).toContain(`Invoice ${first.invoice_number}`);
    expect(text).toContain('Harbour Devices Ltd');
    expect(text).toContain('GB123456789');
    expect(text).toContain('Acme Robotics GmbH');
    expect(text).toContain('DE999999999');
    expect(text).toContain('Legacy devices beyond the plan');
    expect(text).toContain('Prototype plan (monthly)');
    expect(text).toContain('$6.00');
    expect(text).toContain('Total: $105.00 USD');
    expect(text).toContain(INSTRUCTIONS);
    expect(text).toContain(`Due: ${first.due_on!.toISOString().slice(0, 10)}`);
  });

  it('refuses a draft (409), another organization’s invoice (404), a member without billing access (403) and billing off (404)', async () => {
    const draft = await invoice(owner.orgId, { state: 'draft' });
    const res = await get(owner.token, `/billing/v1/account/${owner.orgId}/invoices/${draft.invoice_number}/download`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toBe(INVOICE_NOT_AVAILABLE_MESSAGE);

    const theirs = await invoice(other.orgId);
    const cross = await get(owner.token, `/billing/v1/account/${owner.orgId}/invoices/${theirs.invoice_number}/download`);
    expect(cross.statusCode).toBe(404);
    const foreignOrg = await get(owner.token, `/billing/v1/account/${other.orgId}/invoices`);
    expect(foreignOrg.statusCode).toBe(404);
    const mine = (await get(owner.token, `/billing/v1/account/${owner.orgId}/invoices`)).json<{ invoice_number: string }[]>();
    expect(mine.map((i) => i.invoice_number)).not.toContain(theirs.invoice_number);

    const sdk = await sdkAs(member.token);
    await expect(sdk.models.billing.getInvoices(owner.orgId)).rejects.toThrow('Only administrators of this organization can access its billing');
    expect((await get(member.token, `/billing/v1/account/${owner.orgId}/invoices/${theirs.invoice_number}/download`)).statusCode).toBe(403);
    expect((await get(member.token, `/billing/v1/account/${owner.orgId}/usage`)).statusCode).toBe(403);

    const off = await offApp.inject({ method: 'GET', url: `/billing/v1/account/${owner.orgId}/invoices`, headers: bearer(owner.token) });
    expect(off.statusCode).toBe(404);
  });

  it('mails an issued invoice to the billing email and cc emails (else the administrators), with number, total and due date', async () => {
    const inv = await invoice(owner.orgId);
    await db.tx(async (tx) => {
      expect(await issueInvoiceMail(app, tx, inv)).toBe(1);
    });
    const mail = await invoiceMail(owner.email, inv.invoice_number);
    expect(mail.text).toContain(inv.invoice_number);
    expect(mail.text).toContain('$105.00 USD');
    expect(mail.text).toContain(inv.due_on!.toISOString().slice(0, 10));
    expect(mail.text).toContain(`http://dashboard.test:8080/orgs/${owner.orgId}/billing`);
    expect(mail.text).toContain(INSTRUCTIONS);

    await db.query(`INSERT INTO billing_account (organization, email, cc_emails) VALUES ($1, 'ap@other.test', '{cfo@other.test}')`, [other.orgId]);
    const theirs = await invoice(other.orgId);
    await db.tx(async (tx) => {
      expect(await issueInvoiceMail(app, tx, theirs)).toBe(2);
    });
    expect((await invoiceMail('ap@other.test', theirs.invoice_number)).to).toEqual(['ap@other.test']);
    expect((await invoiceMail('cfo@other.test', theirs.invoice_number)).to).toEqual(['cfo@other.test']);
    expect(inbox.to(other.email).filter((m) => m.text.includes(theirs.invoice_number))).toEqual([]);
    // A draft is not mailed.
    const draft = await invoice(other.orgId, { state: 'draft' });
    expect(await issueInvoiceMail(app, db, draft)).toBe(0);
  });
});

describe('the usage ledger and the period close', () => {
  let usageOwner: SignedUpUser;
  let legacyFleet: number;
  let devices: number[] = [];

  beforeAll(async () => {
    usageOwner = await signUp(app);
    await subscribe(usageOwner.orgId, 'prototype-v2', new Date(nowMs + 10 * DAY));
    const typeId = (await db.query<{ id: number }>(`INSERT INTO application_type (name, slug, is_legacy) VALUES ('Legacy', $1, true) RETURNING id`, [`legacy-${randomBytes(3).toString('hex')}`])).rows[0]!.id;
    const rpi = await deviceTypeId(db, 'raspberrypi3');
    const fleet = async (name: string, extra: Record<string, unknown> = {}) => {
      const actor = (await db.query<{ id: number }>('INSERT INTO actor DEFAULT VALUES RETURNING id')).rows[0]!.id;
      return (
        await db.query<{ id: number }>(
          `INSERT INTO application (actor, app_name, slug, uuid, organization, is_for__device_type, application_type) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
          [actor, name, `${usageOwner.username}/${name}`, randomBytes(16).toString('hex'), usageOwner.orgId, rpi, extra.application_type ?? null],
        )
      ).rows[0]!.id;
    };
    legacyFleet = await fleet('legacy', { application_type: typeId });
    const modern = await fleet('modern');
    devices = [await insertDevice(db, legacyFleet, rpi), await insertDevice(db, legacyFleet, rpi), await insertDevice(db, legacyFleet, rpi)];
    await insertDevice(db, modern, rpi);
    await insertDevice(db, modern, rpi, { is_active: false });
    // Seats: the owner (administrator), a developer, an observer, and one with no seat role yet (member).
    for (const role of ['developer', 'observer', null] as const) {
      const u = await signUp(app);
      const m = await addOrganizationMember(db, u.userId, usageOwner.orgId, 'member');
      await db.query('UPDATE organization_membership SET effective_seat_role = $2 WHERE id = $1', [m, role]);
    }
    await db.query(`UPDATE organization_membership SET effective_seat_role = 'administrator' WHERE "user" = $1 AND is_member_of__organization = $2`, [usageOwner.userId, usageOwner.orgId]);
  });

  const usageOf = async (orgId: number) => {
    const sdk = await sdkAs(usageOwner.token);
    const { body } = await sdk.request.send({ method: 'GET', url: `/billing/v1/account/${orgId}/usage`, baseUrl: apiUrl });
    return body as { currentUsage: Record<string, number>; peakUsage: Record<string, number>; overage: Record<string, number>; charges: Record<string, number>; creditConsumption: Record<string, number> };
  };

  it('records devices by class and seats by effective seat role; the peak stays when usage drops', async () => {
    expect(await recordAllUsage(app)).toBeGreaterThanOrEqual(3);
    const { rows } = await db.query<{ resource: string; current_usage: number; peak_usage: number }>(
      'SELECT resource, current_usage, peak_usage FROM usage_record WHERE organization = $1 ORDER BY resource',
      [usageOwner.orgId],
    );
    const current = Object.fromEntries(rows.map((r) => [r.resource, r.current_usage]));
    expect(current).toMatchObject({
      'device:legacy-v1': 3,
      'device:microservices-v1': 1,
      'member:administrator': 1,
      'member:developer': 1,
      'member:observer': 1,
      'member:member': 1,
      'member:operator': 0,
    });

    await db.query('DELETE FROM device WHERE id = $1', [devices[2]]);
    const usage = await usageOf(usageOwner.orgId);
    expect(usage.currentUsage['device:legacy-v1']).toBe(2);
    expect(usage.peakUsage['device:legacy-v1']).toBe(3);
    // Prototype: 25 microservices devices included, legacy 200 ¢ each; one administrator seat included, developers 4900 ¢.
    expect(usage.overage).toMatchObject({ 'device:legacy-v1': 3, 'device:microservices-v1': 0, 'member:administrator': 0, 'member:developer': 1, 'member:observer': 0, 'member:member': 0 });
    expect(usage.charges).toMatchObject({ 'device:legacy-v1': 600, 'device:microservices-v1': 0, 'member:developer': 4900, 'member:observer': 0 });
    expect(usage.creditConsumption).toEqual({});
    // The deactivated device is not counted (the plan's charges and limits count the same way).
    expect(usage.currentUsage['device:microservices-v1']).toBe(1);
    // Another organization's usage is not the caller's to read.
    const sdk = await sdkAs(usageOwner.token);
    await expect(sdk.request.send({ method: 'GET', url: `/billing/v1/account/${other.orgId}/usage`, baseUrl: apiUrl })).rejects.toThrow('Organization not found');
  });

  it('counts an administrator without a recorded seat role as an administrator, and observers and members never as overage', async () => {
    await db.query(`UPDATE organization_membership SET effective_seat_role = NULL WHERE "user" = $1 AND is_member_of__organization = $2`, [usageOwner.userId, usageOwner.orgId]);
    try {
      const usage = await usageOf(usageOwner.orgId);
      expect(usage.currentUsage).toMatchObject({ 'member:administrator': 1, 'member:member': 1, 'member:observer': 1 });
      expect(usage.overage).toMatchObject({ 'member:administrator': 0, 'member:member': 0, 'member:observer': 0 });
      // The plan's own answer counts the same seats: no charge line for free seats, the owner's seat included.
      const sdk = await sdkAs(usageOwner.token);
      const plan = await sdk.models.billing.getPlan(usageOwner.orgId);
      const lines = Object.fromEntries((plan.addonPlan?.addOns ?? []).map((c) => [c.code, Number(c.quantity)]));
      expect(lines['member:administrator'] ?? 0).toBe(0);
      expect(lines['member:member'] ?? 0).toBe(0);
      expect(lines['member:observer'] ?? 0).toBe(0);
    } finally {
      await db.query(`UPDATE organization_membership SET effective_seat_role = 'administrator' WHERE "user" = $1 AND is_member_of__organization = $2`, [usageOwner.userId, usageOwner.orgId]);
    }
  });

  it('closes an ended period with one invoice (usage in arrears, the plan in advance), charged through the manual provider (open), mailed, and only once', async () => {
    const before = nowMs;
    nowMs += 11 * DAY;
    try {
      const written = await closeDuePeriods(app);
      const mine = written.filter((i) => i.organization === usageOwner.orgId);
      expect(mine).toHaveLength(1);
      const inv = mine[0]!;
      expect(inv).toMatchObject({ kind: 'period', state: 'open', provider: 'manual', provider_reference: `manual:${inv.invoice_number}` });
      const lines = (await db.query<{ code: string; quantity: number; unit_cost_cents: number }>('SELECT code, quantity, unit_cost_cents FROM invoice_line WHERE invoice = $1 ORDER BY position', [inv.id])).rows;
      expect(lines).toEqual(
        expect.arrayContaining([
          { code: 'device:legacy-v1', quantity: 3, unit_cost_cents: 200 },
          { code: 'member:developer', quantity: 1, unit_cost_cents: 4900 },
          { code: 'prototype-v2', quantity: 1, unit_cost_cents: 9900 },
        ]),
      );
      expect(lines).toHaveLength(3);
      expect(inv.total_in_cents).toBe(600 + 4900 + 9900);
      const sub = (await db.query<{ end: Date }>('SELECT current_period_ends_on__date AS end FROM subscription WHERE is_for__organization = $1 AND is_active', [usageOwner.orgId])).rows[0]!;
      expect(sub.end.getTime()).toBeGreaterThan(nowMs);

      // Twice: nothing more.
      expect((await closeDuePeriods(app)).filter((i) => i.organization === usageOwner.orgId)).toEqual([]);
      const count = (await db.query<{ n: string }>(`SELECT count(*) AS n FROM invoice WHERE organization = $1 AND kind = 'period'`, [usageOwner.orgId])).rows[0]!.n;
      expect(Number(count)).toBe(1);

      const mail = await invoiceMail(usageOwner.email, inv.invoice_number);
      expect(mail.text).toContain(inv.invoice_number);
      expect(mail.text).toContain('$154.00 USD');

      const sdk = await sdkAs(usageOwner.token);
      const text = await pdfText((await sdk.models.billing.downloadInvoice(usageOwner.orgId, inv.invoice_number)) as unknown as Readable);
      expect(text).toContain('Total: $154.00 USD');
      expect(text).toContain('Prototype plan (monthly)');
    } finally {
      nowMs = before;
    }
  });
});

describe('past due and frozen', () => {
  let frozenOwner: SignedUpUser;
  let outsider: SignedUpUser;
  let fleetId: number;
  let deviceId: number;
  let otherDevice: number;
  let invoiceNumber: string;
  const start = nowMs;

  beforeAll(async () => {
    frozenOwner = await signUp(app);
    outsider = await signUp(app);
    const rpi = await deviceTypeId(db, 'raspberrypi3');
    const mk = async (u: SignedUpUser, name: string) => {
      const res = await app.inject({ method: 'POST', url: '/v7/application', headers: bearer(u.token), payload: { app_name: name, organization: u.orgId, is_for__device_type: rpi } });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ id: number }>().id;
    };
    fleetId = await mk(frozenOwner, 'frozen-fleet');
    deviceId = await insertDevice(db, fleetId, rpi);
    otherDevice = await insertDevice(db, await mk(outsider, 'healthy-fleet'), rpi);
    nowMs = start;
    const inv = await invoice(frozenOwner.orgId, { dueOn: new Date(start) });
    invoiceNumber = inv.invoice_number;
  });
  afterAll(() => {
    nowMs = start;
  });

  const org = async () =>
    (await db.query<{ since: Date | null; is_frozen: boolean }>('SELECT has_past_due_invoice_since__date AS since, is_frozen FROM organization WHERE id = $1', [frozenOwner.orgId])).rows[0]!;
  const at = async (days: number) => {
    nowMs = start + days * DAY + 60_000;
    await recomputePastDue(app, db);
    return org();
  };

  it('warns at 29 days, errors from 30 to 59, freezes at 60, and marking the invoice paid unfreezes at once', async () => {
    expect(await at(0)).toMatchObject({ is_frozen: false });
    let o = await at(29);
    expect(o.since?.getTime()).toBe(start);
    expect(o.is_frozen).toBe(false);
    expect(pastDueStage(o.since, new Date(nowMs)).stage).toBe('warning');
    const state = (await db.query<{ state: string }>('SELECT state FROM invoice WHERE invoice_number = $1', [invoiceNumber])).rows[0]!.state;
    expect(state).toBe('past_due');
    o = await at(30);
    expect(o.is_frozen).toBe(false);
    expect(pastDueStage(o.since, new Date(nowMs)).stage).toBe('error');
    o = await at(59);
    expect(o.is_frozen).toBe(false);
    expect(pastDueStage(o.since, new Date(nowMs)).daysUntilFrozen).toBe(1);
    o = await at(60);
    expect(o.is_frozen).toBe(true);
    expect(o.since?.getTime()).toBe(start);

    // While frozen: fleet and device writes are refused with the message; reads and billing work; another organization is unaffected.
    const patchDevice = await app.inject({ method: 'PATCH', url: `/v7/device(${deviceId})`, headers: bearer(frozenOwner.token), payload: { device_name: 'renamed' } });
    expect(patchDevice.statusCode).toBe(402);
    expect(patchDevice.json()).toBe(FROZEN_ORGANIZATION_MESSAGE);
    expect(FROZEN_ORGANIZATION_MESSAGE).toContain('more than 60 days past due');
    const patchFleet = await app.inject({ method: 'PATCH', url: `/v7/application(${fleetId})`, headers: bearer(frozenOwner.token), payload: { app_name: 'renamed-fleet' } });
    expect(patchFleet.statusCode).toBe(402);
    const addVar = await app.inject({ method: 'POST', url: '/v7/application_environment_variable', headers: bearer(frozenOwner.token), payload: { application: fleetId, name: 'A', value: '1' } });
    expect(addVar.statusCode).toBe(402);
    const addTag = await app.inject({ method: 'POST', url: '/v7/device_tag', headers: bearer(frozenOwner.token), payload: { device: deviceId, tag_key: 'k', value: 'v' } });
    expect(addTag.statusCode).toBe(402);
    const newFleet = await app.inject({
      method: 'POST',
      url: '/v7/application',
      headers: bearer(frozenOwner.token),
      payload: { app_name: 'another', organization: frozenOwner.orgId, is_for__device_type: await deviceTypeId(db, 'raspberrypi3') },
    });
    expect(newFleet.statusCode).toBe(402);
    const restart = await app.inject({ method: 'POST', url: `/application/${fleetId}/restart`, headers: bearer(frozenOwner.token) });
    expect(restart.statusCode).toBe(402);
    expect((await db.query('SELECT device_name FROM device WHERE id = $1', [deviceId])).rows[0]).not.toMatchObject({ device_name: 'renamed' });
    expect((await db.query('SELECT 1 FROM application_environment_variable WHERE application = $1', [fleetId])).rows).toEqual([]);

    const read = await app.inject({ method: 'GET', url: `/v7/device(${deviceId})?$select=device_name`, headers: bearer(frozenOwner.token) });
    expect(read.statusCode).toBe(200);
    expect(read.json<{ d: unknown[] }>().d).toHaveLength(1);
    const sdk = await sdkAs(frozenOwner.token);
    expect((await sdk.models.billing.getInvoices(frozenOwner.orgId)).map((i) => i.state)).toContain('past_due');

    const healthy = await app.inject({ method: 'PATCH', url: `/v7/device(${otherDevice})`, headers: bearer(outsider.token), payload: { device_name: 'still-writable' } });
    expect(healthy.statusCode, healthy.body).toBe(200);
    expect((await db.query('SELECT device_name FROM device WHERE id = $1', [otherDevice])).rows[0]).toEqual({ device_name: 'still-writable' });

    // Only platform administrators mark invoices paid; it unfreezes at once.
    const byOwner = await app.inject({ method: 'POST', url: `/admin/v1/billing/invoices/${invoiceNumber}/mark-paid`, headers: bearer(frozenOwner.token) });
    expect(byOwner.statusCode).toBe(403);
    const listed = await app.inject({ method: 'GET', url: '/admin/v1/billing/invoices?limit=100', headers: bearer(adminToken) });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json<{ invoices: { invoice_number: string; organization: { id: number } }[] }>().invoices).toEqual(
      expect.arrayContaining([expect.objectContaining({ invoice_number: invoiceNumber, organization: expect.objectContaining({ id: frozenOwner.orgId }) })]),
    );
    expect((await app.inject({ method: 'GET', url: '/admin/v1/billing/invoices', headers: bearer(frozenOwner.token) })).statusCode).toBe(403);
    const paid = await app.inject({ method: 'POST', url: `/admin/v1/billing/invoices/${invoiceNumber}/mark-paid`, headers: bearer(adminToken) });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ invoice_number: invoiceNumber, state: 'paid' });
    expect(await org()).toEqual({ since: null, is_frozen: false });
    const again = await app.inject({ method: 'POST', url: `/admin/v1/billing/invoices/${invoiceNumber}/mark-paid`, headers: bearer(adminToken) });
    expect(again.statusCode).toBe(400);
    const missing = await app.inject({ method: 'POST', url: '/admin/v1/billing/invoices/FLT-999999/mark-paid', headers: bearer(adminToken) });
    expect(missing.statusCode).toBe(404);

    const afterPay = await app.inject({ method: 'PATCH', url: `/v7/device(${deviceId})`, headers: bearer(frozenOwner.token), payload: { device_name: 'renamed' } });
    expect(afterPay.statusCode, afterPay.body).toBe(200);
  });
});

describe('a frozen organization’s devices', () => {
  it('register no new device, yet a registered device still reports its state, reads its target and seeds its own variables', async () => {
    const u = await signUp(app);
    const rpi = await deviceTypeId(db, 'raspberrypi3');
    const created = await app.inject({ method: 'POST', url: '/v7/application', headers: bearer(u.token), payload: { app_name: 'frozen-devices', organization: u.orgId, is_for__device_type: rpi } });
    expect(created.statusCode, created.body).toBe(201);
    const fleet = created.json<{ id: number }>().id;
    const prov = await app.inject({ method: 'POST', url: '/api-key/v2/', headers: bearer(u.token), payload: { actorType: 'application', actorTypeId: fleet, roles: ['provisioning-api-key'] } });
    expect(prov.statusCode, prov.body).toBe(200);
    const provKey = prov.json<string>();
    const register = () =>
      app.inject({ method: 'POST', url: '/device/register', headers: bearer(provKey), payload: { application: fleet, uuid: randomBytes(16).toString('hex'), device_type: 'raspberrypi3' } });
    const first = await register();
    expect(first.statusCode, first.body).toBe(201);
    const device = first.json<{ id: number; uuid: string; api_key: string }>();
    const uuid = (await db.query<{ uuid: string }>('SELECT uuid FROM device WHERE id = $1', [device.id])).rows[0]!.uuid;

    // Frozen: an invoice 60 days past due.
    await invoice(u.orgId, { dueOn: new Date(nowMs - 61 * DAY) });
    await recomputePastDue(app, db, [u.orgId]);
    expect((await db.query('SELECT is_frozen FROM organization WHERE id = $1', [u.orgId])).rows[0]).toEqual({ is_frozen: true });

    const second = await register();
    expect(second.statusCode).toBe(402);
    expect(second.json()).toBe(FROZEN_ORGANIZATION_MESSAGE);
    expect((await db.query('SELECT count(*)::int AS n FROM device WHERE belongs_to__application = $1', [fleet])).rows[0]).toEqual({ n: 1 });

    const report = await app.inject({ method: 'PATCH', url: '/device/v3/state', headers: bearer(device.api_key), payload: { [uuid]: { os_version: 'balenaOS 6.0.0' } } });
    expect(report.statusCode, report.body).toBe(200);
    const target = await app.inject({ method: 'GET', url: `/device/v3/${uuid}/state`, headers: bearer(device.api_key) });
    expect(target.statusCode, target.body).toBe(200);
    const seeded = await app.inject({
      method: 'POST',
      url: '/v6/device_config_variable',
      headers: bearer(device.api_key),
      payload: { device: device.id, name: 'RESIN_SUPERVISOR_POLL_INTERVAL', value: '900000' },
    });
    expect(seeded.statusCode, seeded.body).toBe(201);
    // The owner may not set one for it.
    const byOwner = await app.inject({ method: 'POST', url: '/v7/device_config_variable', headers: bearer(u.token), payload: { device: device.id, name: 'RESIN_HOST_X', value: '1' } });
    expect(byOwner.statusCode).toBe(402);

    // With billing off nothing is limited, frozen flag or not.
    const offWrite = await offApp.inject({ method: 'PATCH', url: `/v7/device(${device.id})`, headers: bearer(u.token), payload: { device_name: 'billing-off' } });
    expect(offWrite.statusCode, offWrite.body).toBe(200);
  });
});
