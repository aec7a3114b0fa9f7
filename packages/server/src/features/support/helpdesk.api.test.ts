import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { jwtVerify } from 'jose';
import { BILLING_LIMIT_MESSAGES, SUPPORT_ATTACHMENT_MAX_BYTES, SUPPORT_MESSAGES, type TicketField } from '@flotilla/model';
import { buildApp, type AppOptions } from '../../app.js';
import { DirectoryFileStore } from '../../infra/files/file-store.js';
import { Mailer } from '../../infra/mail/mailer.js';
import { addOrganizationMember, createTestDb, sdkClient, signInStaff, signUp, TEST_JWT_SECRET, type SignedUpUser, type StaffUser } from '../../../test/harness.js';
import { seedDefaultCatalogue, subscribe } from '../../../test/support/billing-catalogue.js';
import { SmtpInbox } from '../../../test/support/smtp-inbox.js';

/*
 * Issue 19 item 1: the built-in helpdesk through the spec's calls as balena-sdk's
 * `request.send` makes them, on real PostgreSQL, a real file store and a real SMTP server:
 * who may file (paid plan and verified email; open with billing off; members only), the
 * 5 MB attachment limit, a ticket with an attachment stored and mailed to the support inbox
 * and the requester, agents answering in /admin, the field editor, the Zendesk bridge
 * (a stand-in and an unreachable one) and the portal sign-in.
 */
const SUPPORT_INBOX = 'helpdesk@support.test';
const PUBLIC_URL = 'http://dashboard.test:8080';
const SSO_SECRET = 'zendesk-sso-shared-secret-for-tests';

let t: Awaited<ReturnType<typeof createTestDb>>;
const inbox = new SmtpInbox();
let filesDir: string;
const apps: FastifyInstance[] = [];
let app: FastifyInstance;
let apiUrl: string;
let offUrl: string;
let paid: SignedUpUser; // pilot plan, verified
let colleague: SignedUpUser; // member of paid's organization, verified
let free: SignedUpUser; // free plan, verified
let unverified: SignedUpUser; // pilot plan, unverified
let stranger: SignedUpUser; // pilot plan, verified, another organization
let agent: StaffUser;
let administrator: StaffUser;

async function start(options: Partial<AppOptions>): Promise<{ app: FastifyInstance; url: string }> {
  const mailer = new Mailer({ db: t.db, smtpUrl: inbox.url, publicUrl: PUBLIC_URL });
  const a = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET, mailer, files: { store: new DirectoryFileStore(filesDir) }, ...options });
  await a.listen({ port: 0, host: '127.0.0.1' });
  apps.push(a);
  return { app: a, url: `http://127.0.0.1:${(a.server.address() as { port: number }).port}` };
}

async function sdkAs(url: string, token: string) {
  const sdk = sdkClient(url);
  await sdk.auth.loginWithToken(token);
  return sdk;
}

/** balena-sdk's request.send; resolves with status and body, never throws on 4xx/5xx. */
async function send(url: string, token: string, method: 'GET' | 'POST' | 'PATCH' | 'PUT', path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const sdk = await sdkAs(url, token);
  try {
    const res = await sdk.request.send({ method, baseUrl: url, url: path, ...(body !== undefined ? { body } : {}) });
    return { status: res.statusCode, body: res.body };
  } catch (err) {
    const e = err as { statusCode?: number; body?: unknown; message?: string };
    if (typeof e.statusCode !== 'number') throw err;
    return { status: e.statusCode, body: e.body ?? e.message };
  }
}

const upload = (url: string, u: { token: string; orgId: number }, bytes: number, name = 'device.log') =>
  send(url, u.token, 'POST', `/zendesk/v1/${u.orgId}/upload-attachment`, { file: new File([Buffer.alloc(bytes, 'a')], name, { type: 'text/plain' }) });

async function fields(url: string, u: SignedUpUser): Promise<TicketField[]> {
  const res = await send(url, u.token, 'GET', `/zendesk/v1/${u.orgId}/ticket-fields`);
  expect(res.status).toBe(200);
  return (res.body as { ticket_fields: TicketField[] }).ticket_fields;
}

function ticketOf(list: TicketField[], extra: Record<string, unknown> = {}) {
  const select = (title: string) => list.find((f) => f.title === title)!;
  return {
    subject: 'Devices drop off the network',
    comment: { body: 'Since Tuesday some devices go offline every hour.', uploads: [] as string[] },
    custom_fields: [
      { id: select('Category').id, value: 'devices' },
      { id: select('Severity').id, value: 'major' },
    ],
    email_ccs: [{ user_email: 'ops-lead@customer.test' }],
    ...extra,
  };
}

const count = async (table: string) => Number((await t.db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);
const storedFiles = async () => (await readdir(join(filesDir, 'objects')).catch(() => [] as string[])).filter((f) => !f.endsWith('.json'));
const verify = (u: SignedUpUser) => t.db.query('UPDATE "user" SET is_verified = true WHERE id = $1', [u.userId]);

beforeAll(async () => {
  t = await createTestDb();
  await inbox.start();
  filesDir = await mkdtemp(join(tmpdir(), 'flotilla-support-'));
  ({ app, url: apiUrl } = await start({ billing: { enabled: true }, support: { email: SUPPORT_INBOX } }));
  ({ url: offUrl } = await start({}));
  await seedDefaultCatalogue(t.db);
  [paid, colleague, free, unverified, stranger] = [await signUp(app), await signUp(app), await signUp(app), await signUp(app), await signUp(app)];
  await addOrganizationMember(t.db, colleague.userId, paid.orgId, 'member');
  for (const u of [paid, unverified, stranger]) await subscribe(t.db, u.orgId, 'pilot-v2');
  await subscribe(t.db, free.orgId, 'free');
  for (const u of [paid, colleague, free, stranger]) await verify(u);
  agent = await signInStaff(app, t.db, 'support_agent');
  administrator = await signInStaff(app, t.db, 'administrator');
});

afterAll(async () => {
  for (const a of apps) await a.close();
  await inbox.close();
  await t?.drop();
  if (filesDir) await rm(filesDir, { recursive: true, force: true });
});

describe('ticket fields (GET /zendesk/v1/{org}/ticket-fields)', () => {
  it('answers the default fields in Zendesk’s shape, in order, to any member', async () => {
    const list = await fields(apiUrl, paid);
    expect(list.map((f) => [f.type, f.title])).toEqual([
      ['subject', 'Subject'],
      ['description', 'Description'],
      ['tagger', 'Category'],
      ['tagger', 'Severity'],
    ]);
    expect(list[2]).toMatchObject({ required_in_portal: true, active: true, custom_field_options: expect.arrayContaining([{ name: 'Billing', value: 'billing' }]) });
    expect((await fields(apiUrl, { ...colleague, orgId: paid.orgId })).length).toBe(4);
  });
  it('refuses another organization’s user (404) and callers without a token (401)', async () => {
    expect((await send(apiUrl, stranger.token, 'GET', `/zendesk/v1/${paid.orgId}/ticket-fields`)).status).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/zendesk/v1/${paid.orgId}/ticket-fields` })).statusCode).toBe(401);
  });
});

describe('who may open a private ticket', () => {
  it('says so through can-access-support and /access', async () => {
    const ask = async (u: SignedUpUser, url = apiUrl) => (await send(url, u.token, 'GET', `/billing/v1/account/${u.orgId}/can-access-support`)).body;
    expect(await ask(paid)).toBe(true);
    expect(await ask(free)).toBe(false);
    expect(await ask(unverified)).toBe(false);
    const access = await send(apiUrl, free.token, 'GET', `/zendesk/v1/${free.orgId}/access`);
    expect(access.body).toEqual({ allowed: false, reason: 'paid_plan', message: BILLING_LIMIT_MESSAGES.supportNeedsPaidPlan, is_administrator: true });
    expect((await send(apiUrl, colleague.token, 'GET', `/zendesk/v1/${paid.orgId}/access`)).body).toMatchObject({ allowed: true, is_administrator: false });
    expect((await send(apiUrl, stranger.token, 'GET', `/billing/v1/account/${paid.orgId}/can-access-support`)).status).toBe(404);
    // Billing off: open to every verified member.
    expect(await ask(free, offUrl)).toBe(true);
    expect(await ask(unverified, offUrl)).toBe(false);
  });

  it('refuses a free plan and an unverified email on upload and submit, writing nothing', async () => {
    const before = [await count('support_ticket'), await count('support_upload'), (await storedFiles()).length, await count('email_outbox')];
    for (const [u, message] of [
      [free, BILLING_LIMIT_MESSAGES.supportNeedsPaidPlan],
      [unverified, SUPPORT_MESSAGES.verifyEmail],
    ] as const) {
      const up = await upload(apiUrl, u, 10);
      expect(up).toEqual({ status: 403, body: message });
      const submitted = await send(apiUrl, u.token, 'POST', `/zendesk/v1/${u.orgId}/submit-ticket`, ticketOf(await fields(apiUrl, u)));
      expect(submitted).toEqual({ status: 403, body: message });
    }
    expect(await send(apiUrl, stranger.token, 'POST', `/zendesk/v1/${paid.orgId}/submit-ticket`, ticketOf(await fields(apiUrl, paid)))).toMatchObject({ status: 404 });
    expect((await upload(apiUrl, { token: stranger.token, orgId: paid.orgId }, 10)).status).toBe(404);
    expect([await count('support_ticket'), await count('support_upload'), (await storedFiles()).length, await count('email_outbox')]).toEqual(before);
  });

  it('is open with billing off: a free organization’s verified member files a ticket', async () => {
    const res = await send(offUrl, free.token, 'POST', `/zendesk/v1/${free.orgId}/submit-ticket`, ticketOf(await fields(offUrl, free), { email_ccs: [] }));
    expect(res.status).toBe(201);
    expect((await send(offUrl, unverified.token, 'POST', `/zendesk/v1/${unverified.orgId}/submit-ticket`, ticketOf(await fields(offUrl, unverified)))).status).toBe(403);
  });
});

describe('attachments (POST /zendesk/v1/{org}/upload-attachment)', () => {
  it('refuses a file of 5 MB + 1 byte with the limit error, keeping nothing', async () => {
    const before = [await count('support_upload'), (await storedFiles()).length];
    const res = await upload(apiUrl, paid, SUPPORT_ATTACHMENT_MAX_BYTES + 1);
    expect(res).toEqual({ status: 413, body: SUPPORT_MESSAGES.attachmentTooLarge });
    expect([await count('support_upload'), (await storedFiles()).length]).toEqual(before);
  });
  it('takes a file of exactly 5 MB and answers its token', async () => {
    const res = await upload(apiUrl, paid, SUPPORT_ATTACHMENT_MAX_BYTES, 'big.bin');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ upload: { token: expect.stringMatching(/^[A-Za-z0-9]{20,}$/), attachment: { file_name: 'big.bin', size: SUPPORT_ATTACHMENT_MAX_BYTES } } });
  });
});

describe('submitting a ticket', () => {
  let ticketId: number;

  it('refuses a blank required field, a bad cc and someone else’s upload, writing nothing', async () => {
    const list = await fields(apiUrl, paid);
    const before = [await count('support_ticket'), await count('email_outbox')];
    const blank = await send(apiUrl, paid.token, 'POST', `/zendesk/v1/${paid.orgId}/submit-ticket`, ticketOf(list, { subject: '  ' }));
    expect(blank).toEqual({ status: 400, body: `Subject: ${SUPPORT_MESSAGES.blank}` });
    const cc = await send(apiUrl, paid.token, 'POST', `/zendesk/v1/${paid.orgId}/submit-ticket`, ticketOf(list, { email_ccs: [{ user_email: 'nope' }] }));
    expect(cc.status).toBe(400);
    const foreign = ((await upload(apiUrl, stranger, 5)).body as { upload: { token: string } }).upload.token;
    const taken = await send(apiUrl, paid.token, 'POST', `/zendesk/v1/${paid.orgId}/submit-ticket`, ticketOf(list, { comment: { body: 'x', uploads: [foreign] } }));
    expect(taken).toEqual({ status: 400, body: SUPPORT_MESSAGES.unknownUpload });
    expect([await count('support_ticket'), await count('email_outbox')]).toEqual(before);
  });

  it('stores a ticket with an attachment and mails it to the support inbox, the requester and the cc', async () => {
    const content = 'kernel: eth0 link down\n'.repeat(20);
    const up = await send(apiUrl, paid.token, 'POST', `/zendesk/v1/${paid.orgId}/upload-attachment`, { file: new File([content], 'kernel.log', { type: 'text/plain' }) });
    expect(up.status).toBe(201);
    const token = (up.body as { upload: { token: string } }).upload.token;
    const res = await send(apiUrl, paid.token, 'POST', `/zendesk/v1/${paid.orgId}/submit-ticket`, ticketOf(await fields(apiUrl, paid), { comment: { body: 'Since Tuesday some devices go offline every hour.', uploads: [token] } }));
    expect(res.status).toBe(201);
    ticketId = (res.body as { request: { id: number } }).request.id;
    expect(res.body).toMatchObject({ request: { id: ticketId, status: 'open', subject: 'Devices drop off the network' } });

    const { rows } = await t.db.query<{ organization: number; requester: number; cc_emails: string[]; status: string; field_values: { title: string; display: string }[] }>(
      'SELECT organization, requester, cc_emails, status, field_values FROM support_ticket WHERE id = $1',
      [ticketId],
    );
    expect(rows[0]).toMatchObject({ organization: paid.orgId, requester: paid.userId, cc_emails: ['ops-lead@customer.test'], status: 'open' });
    expect(rows[0]!.field_values.map((f) => `${f.title}=${f.display}`)).toEqual(['What is it about?=Devices and fleets', 'How much does it affect you?=Major: work is blocked']);

    const toInbox = await inbox.nth(SUPPORT_INBOX, 1, (m) => m.text.includes(`[Support #${ticketId}]`));
    expect(toInbox.text).toContain('Devices drop off the network');
    expect(toInbox.text).toContain(paid.email);
    expect(toInbox.text).toContain('kernel.log');
    // The attachment travels as a signed link that downloads the file.
    const link = /http:\/\/dashboard\.test:8080(\/files\/v1\/[A-Za-z0-9]+\?expires=\d+&signature=[A-Za-z0-9_-]+)/.exec(toInbox.text);
    expect(link).not.toBeNull();
    const download = await fetch(`${apiUrl}${link![1]}`);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe(content);
    expect(download.headers.get('content-disposition')).toContain('kernel.log');

    const confirmation = await inbox.nth(paid.email, 1, (m) => m.text.includes(`[Support #${ticketId}]`));
    expect(confirmation.text).toContain('We received your request');
    await inbox.nth('ops-lead@customer.test', 1, (m) => m.text.includes(`[Support #${ticketId}]`));
    // An upload goes with one ticket only.
    const again = await send(apiUrl, paid.token, 'POST', `/zendesk/v1/${paid.orgId}/submit-ticket`, ticketOf(await fields(apiUrl, paid), { comment: { body: 'again', uploads: [token] } }));
    expect(again).toEqual({ status: 400, body: SUPPORT_MESSAGES.unknownUpload });
  });

  it('lets the organization read its tickets and replies, nobody else', async () => {
    const list = await send(apiUrl, colleague.token, 'GET', `/zendesk/v1/${paid.orgId}/tickets`);
    expect(list.status).toBe(200);
    expect((list.body as { tickets: { id: number }[] }).tickets.map((x) => x.id)).toContain(ticketId);
    expect((await send(apiUrl, stranger.token, 'GET', `/zendesk/v1/${paid.orgId}/tickets`)).status).toBe(404);
    expect((await send(apiUrl, stranger.token, 'GET', `/zendesk/v1/${stranger.orgId}/tickets/${ticketId}`)).status).toBe(404);
  });

  it('is listed for support agents, answered by mail, closed and reopened', async () => {
    expect((await send(apiUrl, paid.token, 'GET', '/admin/v1/support/tickets')).status).toBe(403);
    const list = await send(apiUrl, agent.token, 'GET', '/admin/v1/support/tickets?status=open&limit=5');
    expect(list.status).toBe(200);
    const tickets = (list.body as { total: number; tickets: { id: number; created_at: string; status: string }[] }).tickets;
    expect(tickets[0]!.id).toBe(ticketId); // newest first
    expect(tickets.every((x) => x.status === 'open')).toBe(true);

    const detail = await send(apiUrl, agent.token, 'GET', `/admin/v1/support/tickets/${ticketId}`);
    const d = detail.body as { requester: { email: string }; organization: { id: number }; attachments: { filename: string; url: string }[]; email_ccs: string[] };
    expect(d).toMatchObject({ requester: { email: paid.email }, organization: { id: paid.orgId }, email_ccs: ['ops-lead@customer.test'] });
    expect(d.attachments.map((a) => a.filename)).toEqual(['kernel.log']);
    expect((await fetch(d.attachments[0]!.url)).status).toBe(200);

    expect((await send(apiUrl, agent.token, 'POST', `/admin/v1/support/tickets/${ticketId}/replies`, { body: ' ' })).status).toBe(400);
    const reply = await send(apiUrl, agent.token, 'POST', `/admin/v1/support/tickets/${ticketId}/replies`, { body: 'Please update the agent to 2.3; it fixes the link flapping.' });
    expect(reply.status).toBe(201);
    const mail = await inbox.nth(paid.email, 1, (m) => m.text.includes(`[Support #${ticketId}] Re:`));
    expect(mail.text).toContain('Please update the agent to 2.3');
    await inbox.nth('ops-lead@customer.test', 1, (m) => m.text.includes(`[Support #${ticketId}] Re:`));

    const seen = await send(apiUrl, paid.token, 'GET', `/zendesk/v1/${paid.orgId}/tickets/${ticketId}`);
    expect(seen.body).toMatchObject({ status: 'answered', replies: [{ author: agent.username, body: 'Please update the agent to 2.3; it fixes the link flapping.' }] });

    expect((await send(apiUrl, paid.token, 'PATCH', `/admin/v1/support/tickets/${ticketId}`, { status: 'closed' })).status).toBe(403);
    expect((await send(apiUrl, agent.token, 'PATCH', `/admin/v1/support/tickets/${ticketId}`, { status: 'closed' })).body).toMatchObject({ status: 'closed' });
    expect(await send(apiUrl, agent.token, 'POST', `/admin/v1/support/tickets/${ticketId}/replies`, { body: 'late' })).toEqual({ status: 400, body: SUPPORT_MESSAGES.closed });
    expect((await send(apiUrl, agent.token, 'PATCH', `/admin/v1/support/tickets/${ticketId}`, { status: 'open' })).body).toMatchObject({ status: 'open' });
  });
});

describe('ticket field editor (/admin/v1/support/ticket-fields)', () => {
  it('lets platform administrators add, edit, reorder and deactivate fields; support agents only read', async () => {
    const area = { type: 'tagger', title: 'Area', title_in_portal: 'Which area?', required_in_portal: false, active: true, custom_field_options: [{ name: 'Network', value: 'network' }] };
    expect((await send(apiUrl, agent.token, 'GET', '/admin/v1/support/ticket-fields')).status).toBe(200);
    const before = await count('support_ticket_field');
    expect(await send(apiUrl, agent.token, 'POST', '/admin/v1/support/ticket-fields', area)).toEqual({ status: 403, body: SUPPORT_MESSAGES.administratorsOnly });
    expect((await send(apiUrl, paid.token, 'POST', '/admin/v1/support/ticket-fields', area)).status).toBe(403);
    expect(await send(apiUrl, administrator.token, 'POST', '/admin/v1/support/ticket-fields', { ...area, custom_field_options: [] })).toEqual({ status: 400, body: SUPPORT_MESSAGES.optionsNeeded });
    expect(await send(apiUrl, administrator.token, 'POST', '/admin/v1/support/ticket-fields', { ...area, type: 'subject', custom_field_options: null })).toEqual({ status: 400, body: SUPPORT_MESSAGES.systemFieldType });
    expect(await count('support_ticket_field')).toBe(before);

    const created = await send(apiUrl, administrator.token, 'POST', '/admin/v1/support/ticket-fields', area);
    expect(created.status).toBe(201);
    const id = (created.body as TicketField).id;
    expect((await fields(apiUrl, paid)).at(-1)).toMatchObject({ id, title_in_portal: 'Which area?' });

    const all = ((await send(apiUrl, agent.token, 'GET', '/admin/v1/support/ticket-fields')).body as { ticket_fields: TicketField[] }).ticket_fields;
    const order = [all.at(-1)!.id, ...all.slice(0, -1).map((f) => f.id)];
    expect((await send(apiUrl, agent.token, 'PUT', '/admin/v1/support/ticket-fields/order', { ids: order })).status).toBe(403);
    expect((await send(apiUrl, administrator.token, 'PUT', '/admin/v1/support/ticket-fields/order', { ids: order.slice(1) })).status).toBe(400);
    expect((await send(apiUrl, administrator.token, 'PUT', '/admin/v1/support/ticket-fields/order', { ids: order })).status).toBe(200);
    expect((await fields(apiUrl, paid))[0]!.id).toBe(id);

    const subject = all.find((f) => f.type === 'subject')!;
    expect(await send(apiUrl, administrator.token, 'PATCH', `/admin/v1/support/ticket-fields/${subject.id}`, { ...subject, custom_field_options: null, active: false, id: undefined, position: undefined })).toMatchObject({ status: 400 });
    const off = await send(apiUrl, administrator.token, 'PATCH', `/admin/v1/support/ticket-fields/${id}`, { ...area, active: false });
    expect(off.body).toMatchObject({ id, active: false });
    expect((await fields(apiUrl, paid)).some((f) => f.id === id)).toBe(false);
    // A deactivated field is refused in a submission.
    const current = await fields(apiUrl, paid);
    const res = await send(apiUrl, paid.token, 'POST', `/zendesk/v1/${paid.orgId}/submit-ticket`, ticketOf(current, { custom_fields: [...ticketOf(current).custom_fields, { id, value: 'network' }] }));
    expect(res).toEqual({ status: 400, body: `${id}: ${SUPPORT_MESSAGES.unknownField(id)}` });
  });
});

/** A tiny Zendesk: its ticket fields, ticket creation (or failing it), the requests it got. */
function zendeskStandIn(opts: { failTickets?: boolean } = {}) {
  const received: { path: string; auth: string | undefined; body: unknown }[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      received.push({ path: req.url ?? '', auth: req.headers.authorization, body: text ? (JSON.parse(text) as unknown) : null });
      res.setHeader('content-type', 'application/json');
      if (req.method === 'GET' && req.url === '/api/v2/ticket_fields.json') {
        res.end(
          JSON.stringify({
            ticket_fields: [
              { id: 901, type: 'subject', title: 'Subject', title_in_portal: 'Subject', required_in_portal: true, visible_in_portal: true, editable_in_portal: true, active: true, position: 1 },
              { id: 902, type: 'description', title: 'Description', title_in_portal: 'Description', required_in_portal: true, visible_in_portal: true, editable_in_portal: true, active: true, position: 2 },
              { id: 903, type: 'tagger', title: 'Product', title_in_portal: 'Product', required_in_portal: true, visible_in_portal: true, editable_in_portal: true, active: true, position: 3, custom_field_options: [{ id: 1, name: 'Cloud', value: 'cloud' }] },
              { id: 904, type: 'text', title: 'Internal', visible_in_portal: false, active: true, position: 4 },
              { id: 905, type: 'status', title: 'Status', visible_in_portal: true, active: true, position: 5 },
            ],
          }),
        );
      } else if (req.method === 'POST' && req.url === '/api/v2/tickets.json' && !opts.failTickets) {
        res.statusCode = 201;
        res.end(JSON.stringify({ ticket: { id: 4242 } }));
      } else {
        res.statusCode = 503;
        res.end(JSON.stringify({ error: 'unavailable' }));
      }
    });
  });
  return {
    received,
    async start() {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('the Zendesk bridge', () => {
  it('reads the fields from Zendesk and forwards tickets there (stand-in)', async () => {
    const zendesk = zendeskStandIn();
    const url = await zendesk.start();
    try {
      const { url: bridged } = await start({ support: { zendesk: { url, email: 'api@support.test', token: 'zd-token', ssoSecret: SSO_SECRET } } });
      const list = await fields(bridged, paid);
      expect(list.map((f) => f.id)).toEqual([901, 902, 903]);
      const res = await send(bridged, paid.token, 'POST', `/zendesk/v1/${paid.orgId}/submit-ticket`, {
        subject: 'Bridged',
        comment: { body: 'Through Zendesk' },
        custom_fields: [{ id: 903, value: 'cloud' }],
        email_ccs: [{ user_email: 'cc@customer.test' }],
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ zendesk: { id: 4242, error: null } });
      const created = zendesk.received.find((r) => r.path === '/api/v2/tickets.json')!;
      expect(created.auth).toBe(`Basic ${Buffer.from('api@support.test/token:zd-token').toString('base64')}`);
      expect(created.body).toMatchObject({
        ticket: { subject: 'Bridged', requester: { email: paid.email }, custom_fields: [{ id: 903, value: 'cloud' }], email_ccs: [{ user_email: 'cc@customer.test', action: 'put' }] },
      });
      const id = (res.body as { request: { id: number } }).request.id;
      expect((await t.db.query('SELECT zendesk_id::int AS z, forward_error FROM support_ticket WHERE id = $1', [id])).rows[0]).toEqual({ z: 4242, forward_error: null });
    } finally {
      await zendesk.close();
    }
  });

  it('still stores the ticket when Zendesk fails or cannot be reached, and says what to do', async () => {
    const failing = zendeskStandIn({ failTickets: true });
    const url = await failing.start();
    const unreachableUrl = `${await (async () => {
      const s = zendeskStandIn();
      const u = await s.start();
      await s.close();
      return u;
    })()}`;
    try {
      for (const zendeskUrl of [url, unreachableUrl]) {
        const { url: bridged } = await start({ support: { email: SUPPORT_INBOX, zendesk: { url: zendeskUrl, email: 'api@support.test', token: 'zd-token', timeoutMs: 2000 } } });
        const list = await fields(bridged, paid);
        const res = await send(bridged, paid.token, 'POST', `/zendesk/v1/${paid.orgId}/submit-ticket`, {
          subject: `Zendesk down ${zendeskUrl}`,
          comment: { body: 'Stored anyway' },
          custom_fields: list.filter((f) => f.type === 'tagger').map((f) => ({ id: f.id, value: f.custom_field_options![0]!.value })),
        });
        expect(res.status).toBe(201);
        const error = (res.body as { zendesk: { id: null; error: string } }).zendesk.error;
        expect(error).toMatch(/could not be reached to forward the ticket .*FLOTILLA_ZENDESK_URL/);
        const id = (res.body as { request: { id: number } }).request.id;
        expect((await t.db.query<{ forward_error: string }>('SELECT forward_error FROM support_ticket WHERE id = $1', [id])).rows[0]!.forward_error).toBe(error);
        await inbox.nth(SUPPORT_INBOX, 1, (m) => m.text.includes(`[Support #${id}]`));
      }
    } finally {
      await failing.close();
    }
  });
});

describe('support portal sign-in (GET /zendesk/v1/login)', () => {
  it('explains when no portal is configured, refuses non-staff, signs staff in with a JWT', async () => {
    expect(await send(apiUrl, agent.token, 'GET', '/zendesk/v1/login')).toEqual({ status: 404, body: 'No external support portal is configured' });
    const zendesk = zendeskStandIn();
    const url = await zendesk.start();
    try {
      const { url: bridged } = await start({ support: { zendesk: { url, email: 'api@support.test', token: 'zd-token', ssoSecret: SSO_SECRET } } });
      const refused = await send(bridged, paid.token, 'GET', '/zendesk/v1/login');
      expect(refused.status).toBe(403);
      expect(String(refused.body)).toContain('not authorized');
      expect((await send(bridged, agent.token, 'GET', `/zendesk/v1/login?return_to=${encodeURIComponent('https://evil.test/')}`)).status).toBe(400);
      const res = await send(bridged, agent.token, 'GET', `/zendesk/v1/login?return_to=${encodeURIComponent(`${url}/hc/en-us`)}`);
      expect(res.status).toBe(200);
      const redirect = new URL((res.body as { url: string }).url);
      expect(`${redirect.origin}${redirect.pathname}`).toBe(`${url}/access/jwt`);
      expect(redirect.searchParams.get('return_to')).toBe(`${url}/hc/en-us`);
      const { payload } = await jwtVerify(redirect.searchParams.get('jwt')!, new TextEncoder().encode(SSO_SECRET));
      expect(payload).toMatchObject({ email: agent.email, name: agent.username });
      expect(typeof payload.jti).toBe('string');
    } finally {
      await zendesk.close();
    }
  });
});
