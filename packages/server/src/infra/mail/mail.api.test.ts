import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.js';
import { EMPTY_BODY } from '../http/schemas.js';
import { loadConfig } from '../config/config.js';
import { Mailer, createMailer, publicLink } from './mailer.js';
import { escapeHtml, fleetInvitation, organizationInvitation } from './templates.js';
import { createUser } from '../../features/users/user.service.js';
import { bearer, createTestDb, signInStaff, signUp, TEST_JWT_SECRET } from '../../../test/harness.js';
import { freePort } from '../../../test/support/net.js';

// Outgoing mail (issue 3): a real SMTP server in-process, the outbox on real PostgreSQL,
// and the outbox's visibility through the data API.

interface Received {
  from: string;
  to: string[];
  authUser: string | null;
  raw: string;
}

/** Header block and decoded body of a raw RFC 5322 message (enough for nodemailer's output). */
function parseRaw(raw: string): { headers: Record<string, string>; body: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).toLowerCase()] ??= line.slice(i + 1).trim();
  }
  // Quoted-printable soft breaks and escapes (nodemailer's encoding for long ASCII lines).
  const body = raw
    .slice(split + 4)
    .replace(/=\r\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return { headers, body };
}


let t: Awaited<ReturnType<typeof createTestDb>>;
let smtp: SMTPServer;
let smtpPort: number;
const received: Received[] = [];

beforeAll(async () => {
  t = await createTestDb();
  smtp = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'mailuser' && auth.password === 'p@ss word') callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const mailFrom = session.envelope.mailFrom;
        received.push({
          from: mailFrom ? mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          authUser: session.user === undefined ? null : String(session.user),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.once('error', reject);
    smtp.listen(0, '127.0.0.1', () => resolve());
  });
  smtpPort = (smtp.server.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await t.drop();
});

const outboxRow = async (id: number | null) =>
  (await t.db.query<Record<string, unknown>>('SELECT recipient, subject, text_body, html_body, sent_via, error FROM email_outbox WHERE id = $1', [id])).rows[0];

describe('templates', () => {
  const invite = {
    inviterName: 'Alice',
    organizationName: '<script>alert("x")</script> & Co',
    roleName: 'member',
    message: 'Welcome <b>aboard</b>\nsee you',
    acceptUrl: 'https://flotilla.example.com/invitations/accept?token=abc&x=1',
  };

  it('escapes every interpolated value in the HTML body', () => {
    const mail = organizationInvitation(invite);
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<b>aboard');
    expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co');
    expect(mail.html).toContain('Welcome &lt;b&gt;aboard&lt;/b&gt;<br>see you');
    expect(mail.html).toContain('href="https://flotilla.example.com/invitations/accept?token=abc&amp;x=1"');
    // The plain-text body carries the values as they are, and the link.
    expect(mail.text).toContain('"<script>alert("x")</script> & Co"');
    expect(mail.text).toContain('https://flotilla.example.com/invitations/accept?token=abc&x=1');
    expect(mail.text).toContain('> Welcome <b>aboard</b>\n> see you');
    expect(mail.subject).toBe('Alice invited you to the organization <script>alert("x")</script> & Co on Flotilla');
  });

  it('keeps subjects on one line and refuses non-http links', () => {
    const mail = fleetInvitation({ inviterName: 'Eve\r\nBcc: victim@example.com', applicationName: 'Fleet\nOne', roleName: 'developer', acceptUrl: 'http://localhost:8080/a' });
    expect(mail.subject).toBe('Eve Bcc: victim@example.com invited you to the fleet Fleet One on Flotilla');
    expect(mail.html).toContain('fleet <strong>Fleet\nOne</strong>');
    expect(() => fleetInvitation({ inviterName: 'x', applicationName: 'y', roleName: 'z', acceptUrl: 'javascript:alert(1)' })).toThrow(/http/);
    expect(() => fleetInvitation({ inviterName: 'x', applicationName: 'y', roleName: 'z', acceptUrl: '/relative' })).toThrow(/absolute/);
    expect(escapeHtml(`<a href='x'>&`)).toBe('&lt;a href=&#39;x&#39;&gt;&amp;');
  });

  it('builds public links on FLOTILLA_PUBLIC_URL, keeping its path', () => {
    expect(publicLink('https://fleet.example.com', '/invitations/accept?token=a')).toBe('https://fleet.example.com/invitations/accept?token=a');
    expect(publicLink('https://fleet.example.com/flotilla/', 'login')).toBe('https://fleet.example.com/flotilla/login');
    expect(() => publicLink('https://fleet.example.com', 'https://evil.example.com/')).toThrow();
    expect(() => publicLink('https://fleet.example.com', '//evil.example.com/')).toThrow();
    expect(new Mailer({ db: t.db, publicUrl: 'http://localhost:9999' }).publicLink('/signup')).toBe('http://localhost:9999/signup');
  });
});

describe('configuration', () => {
  it('accepts smtp:// and smtps:// URLs and a sender; rejects anything else', () => {
    const c = loadConfig({ SMTP_URL: 'smtps://u:p@mail.example.com:465', FLOTILLA_MAIL_FROM: 'Fleet <fleet@example.com>' });
    expect(c.SMTP_URL).toBe('smtps://u:p@mail.example.com:465');
    expect(c.FLOTILLA_MAIL_FROM).toBe('Fleet <fleet@example.com>');
    expect(loadConfig({}).FLOTILLA_MAIL_FROM).toBe('Flotilla <no-reply@localhost>');
    expect(loadConfig({}).SMTP_URL).toBeUndefined();
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example.com' })).toThrow(/SMTP_URL: must start with smtp:\/\/ or smtps:\/\//);
    expect(() => loadConfig({ SMTP_URL: 'not a url' })).toThrow(/SMTP_URL/);
    expect(() => loadConfig({ FLOTILLA_MAIL_FROM: 'nobody' })).toThrow(/FLOTILLA_MAIL_FROM/);
  });
});

describe('SMTP delivery', () => {
  it('delivers through the SMTP server named by SMTP_URL, with credentials, and records it', async () => {
    const config = loadConfig({
      SMTP_URL: `smtp://mailuser:${encodeURIComponent('p@ss word')}@127.0.0.1:${smtpPort}`,
      FLOTILLA_MAIL_FROM: 'Flotilla Test <flotilla@example.com>',
      FLOTILLA_PUBLIC_URL: 'https://fleet.example.com',
    });
    const mailer = createMailer(t.db, config);
    expect(mailer.mode).toBe('smtp');
    const acceptUrl = mailer.publicLink('/invitations/accept?token=tok123');
    const mail = organizationInvitation({ inviterName: 'Alice', organizationName: 'Acme', roleName: 'member', acceptUrl });
    const before = received.length;
    const result = await mailer.send({ to: 'bob@example.com', ...mail });
    mailer.close();

    expect(result).toMatchObject({ ok: true, via: 'smtp' });
    expect(result.messageId).toMatch(/@/);
    expect(received).toHaveLength(before + 1);
    const got = received[received.length - 1]!;
    expect(got.from).toBe('flotilla@example.com');
    expect(got.to).toEqual(['bob@example.com']);
    expect(got.authUser).toBe('mailuser');
    const { headers, body } = parseRaw(got.raw);
    expect(headers.subject).toBe('Alice invited you to the organization Acme on Flotilla');
    expect(headers.to).toBe('bob@example.com');
    expect(headers.from).toBe('Flotilla Test <flotilla@example.com>');
    expect(headers['content-type']).toMatch(/^multipart\/alternative/);
    expect(body).toContain('https://fleet.example.com/invitations/accept?token=tok123');
    expect(body).toContain('href="https://fleet.example.com/invitations/accept?token=tok123"');

    expect(await outboxRow(result.outboxId)).toEqual({
      recipient: 'bob@example.com',
      subject: mail.subject,
      text_body: mail.text,
      html_body: mail.html,
      sent_via: 'smtp',
      error: null,
    });
  });

  it('reports wrong credentials as a failure and records the error', async () => {
    const mailer = new Mailer({ db: t.db, smtpUrl: `smtp://mailuser:wrong@127.0.0.1:${smtpPort}` });
    const result = await mailer.send({ to: 'bob@example.com', subject: 'Hello', text: 'Hi' });
    mailer.close();
    expect(result).toMatchObject({ ok: false, via: 'smtp' });
    expect(result.error).toMatch(/Invalid username or password|auth/i);
    expect(await outboxRow(result.outboxId)).toMatchObject({ sent_via: 'smtp', error: result.error, html_body: null });
  });
});

describe('an unreachable SMTP server', () => {
  let app: FastifyInstance;
  const logged: { msg: string; obj: object }[] = [];

  beforeAll(async () => {
    const closedPort = await freePort();
    const log = {
      info: () => undefined,
      warn: (obj: object, msg: string) => logged.push({ obj, msg }),
      error: (obj: object, msg: string) => logged.push({ obj, msg }),
    };
    const mailer = new Mailer({ db: t.db, smtpUrl: `smtp://127.0.0.1:${closedPort}`, publicUrl: 'https://fleet.example.com', log });
    app = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET, mailer });
    // A feature-style route that sends mail as part of a request.
    app.post('/test/invite', { schema: { body: EMPTY_BODY } }, async () => {
      const mail = fleetInvitation({
        inviterName: 'Alice',
        applicationName: 'Fleet',
        roleName: 'developer',
        acceptUrl: app.mailer.publicLink('/invitations/accept?token=t'),
      });
      const sent = await app.mailer.send({ to: 'carol@example.com', ...mail });
      return { invited: true, mail: sent };
    });
  });
  afterAll(async () => {
    await app.close();
    app.mailer.close();
  });

  it('does not fail the request: the result says the mail failed, the error is logged and recorded', async () => {
    const res = await app.inject({ method: 'POST', url: '/test/invite' });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ invited: boolean; mail: { ok: boolean; via: string; outboxId: number; error: string } }>();
    expect(body).toMatchObject({ invited: true, mail: { ok: false, via: 'smtp' } });
    expect(body.mail.error).toMatch(/ECONNREFUSED|connect/i);
    expect(await outboxRow(body.mail.outboxId)).toMatchObject({
      recipient: 'carol@example.com',
      sent_via: 'smtp',
      error: body.mail.error,
    });
    expect(logged.some((l) => l.msg === 'e-mail not sent')).toBe(true);
  });

  it('refuses a malformed recipient without sending', async () => {
    const result = await app.mailer.send({ to: 'a@b.c\r\nBcc: x@y.z', subject: 's', text: 't' });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/invalid recipient/);
  });
});

describe('the outbox (no SMTP_URL)', () => {
  let app: FastifyInstance;
  let adminToken: string;
  let userToken: string;
  let outboxId: number;

  beforeAll(async () => {
    // The default mailer of buildApp: outbox only.
    app = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET });
    adminToken = (await signInStaff(app, t.db)).token;
    userToken = (await signUp(app)).token;
  });
  afterAll(async () => {
    await app.close();
  });

  it('keeps the mail in email_outbox', async () => {
    expect(app.mailer.mode).toBe('outbox');
    const acceptUrl = app.mailer.publicLink('/invitations/accept?token=out1');
    expect(acceptUrl).toBe('http://localhost:8080/invitations/accept?token=out1');
    const mail = organizationInvitation({ inviterName: 'Alice', organizationName: 'Acme <Fleet>', roleName: 'administrator', message: 'Hi!', acceptUrl });
    const result = await app.mailer.send({ to: 'dave@example.com', ...mail });
    expect(result).toMatchObject({ ok: true, via: 'outbox' });
    expect(result.error).toBeUndefined();
    outboxId = result.outboxId!;
    expect(await outboxRow(outboxId)).toEqual({
      recipient: 'dave@example.com',
      subject: mail.subject,
      text_body: mail.text,
      html_body: mail.html,
      sent_via: 'outbox',
      error: null,
    });
  });

  it('a platform administrator reads it through GET /v7/email_outbox', async () => {
    const res = await app.inject({ method: 'GET', url: `/v7/email_outbox?$filter=recipient eq 'dave@example.com'&$orderby=id desc`, headers: bearer(adminToken) });
    expect(res.statusCode).toBe(200);
    const d = res.json<{ d: Record<string, unknown>[] }>().d;
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ id: outboxId, recipient: 'dave@example.com', sent_via: 'outbox', error: null });
    expect(String(d[0]!.text_body)).toContain('http://localhost:8080/invitations/accept?token=out1');
    expect(String(d[0]!.html_body)).toContain('Acme &lt;Fleet&gt;');
    expect(d[0]!.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('support agents, who read most things, do not read it (it holds invitation links)', async () => {
    await createUser(t.db, { email: 'mail-support@example.com', password: 'support-password', platformRole: 'support_agent', isVerified: true });
    const token = (await app.inject({ method: 'POST', url: '/login_', payload: { username: 'mail-support@example.com', password: 'support-password' } })).body;
    const res = await app.inject({ method: 'GET', url: '/v7/email_outbox', headers: bearer(token) });
    expect(res.statusCode).toBe(401);
    const orgs = await app.inject({ method: 'GET', url: '/v7/organization/$count', headers: bearer(token) });
    expect(orgs.json().d).toBeGreaterThan(0);
  });

  it('nobody writes it through the data API, not even the administrator', async () => {
    const post = await app.inject({ method: 'POST', url: '/v7/email_outbox', headers: bearer(adminToken), payload: { recipient: 'x@example.com', subject: 's', text_body: 't', sent_via: 'outbox' } });
    // Platform administrators only read it (roles.ts): no create right at all.
    expect(post.statusCode).toBe(401);
    const patch = await app.inject({ method: 'PATCH', url: `/v7/email_outbox(${outboxId})`, headers: bearer(adminToken), payload: { subject: 'changed' } });
    expect(patch.statusCode).toBe(401);
    expect((await outboxRow(outboxId))?.subject).not.toBe('changed');
  });

  it('an ordinary user or an anonymous caller gets 401', async () => {
    for (const headers of [bearer(userToken), {}]) {
      for (const url of ['/v7/email_outbox', `/v7/email_outbox(${outboxId})`, '/v7/email_outbox/$count', `/v7/email_outbox?$filter=recipient eq 'dave@example.com'`]) {
        const res = await app.inject({ method: 'GET', url, headers });
        expect(res.statusCode, url).toBe(401);
      }
    }
    const post = await app.inject({ method: 'POST', url: '/v7/email_outbox', headers: bearer(userToken), payload: { recipient: 'x@example.com' } });
    expect(post.statusCode).toBe(401);
    const del = await app.inject({ method: 'DELETE', url: `/v7/email_outbox(${outboxId})`, headers: bearer(userToken) });
    expect(del.statusCode).toBe(401);
    expect(await outboxRow(outboxId)).toBeDefined();
  });

  it("a user's $expand or $filter cannot reach it", async () => {
    for (const url of [
      '/v7/user?$expand=email_outbox',
      '/v7/organization?$expand=email_outbox',
      '/v7/user?$filter=email_outbox/any(e:e/id gt 0)',
      '/v7/user?$filter=email_outbox/$count gt 0',
      '/v7/user?$orderby=email_outbox/id asc',
    ]) {
      const res = await app.inject({ method: 'GET', url, headers: bearer(userToken) });
      expect(res.statusCode, url).toBe(400);
      expect(res.body).not.toContain('dave@example.com');
    }
  });
});
