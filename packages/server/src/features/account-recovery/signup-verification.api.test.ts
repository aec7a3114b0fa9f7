import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ACCOUNT_MESSAGES, EMAIL_VERIFICATION_TOKEN_TTL_SECONDS, VERIFICATION_EMAIL_INTERVAL_SECONDS } from '@flotilla/model';
import { buildApp } from '../../app.js';
import { Mailer } from '../../infra/mail/mailer.js';
import { bearer, createTestDb, sdkClient, TEST_JWT_SECRET } from '../../../test/harness.js';
import { freePort } from '../../../test/support/net.js';
import { mailLink, SmtpInbox } from '../../../test/support/smtp-inbox.js';

/*
 * Sign-up with captcha, newsletter flag and verification mail; POST /user/v1/verify-email
 * (single use, expiring, hashed tokens); resend through the SDK (rate-limited); the profile
 * step; FLOTILLA_REQUIRE_EMAIL_VERIFICATION on the data API (spec 1 §2, §4, §5, §8).
 * Real PostgreSQL, a real SMTP server in-process, a fake captcha verifier over HTTP, and a
 * movable clock instead of waiting.
 */
let t: Awaited<ReturnType<typeof createTestDb>>;
const inbox = new SmtpInbox();
let mailer: Mailer;
let nowMs = Date.now();
const clock = () => nowMs;
const advance = (seconds: number) => {
  nowMs += seconds * 1000;
};

let app: FastifyInstance; // no captcha configured, verification not required
let strictApp: FastifyInstance; // FLOTILLA_REQUIRE_EMAIL_VERIFICATION
let captchaApp: FastifyInstance; // a working verifier
let deadCaptchaApp: FastifyInstance; // the verifier's port is closed
let verifier: Server;
const verifierCalls: URLSearchParams[] = [];
let apiUrl: string;

const address = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.com`;
const PASSWORD = 'correct horse battery';

async function register(target: FastifyInstance, email: string, extra: Record<string, unknown> = {}) {
  return target.inject({ method: 'POST', url: '/user/register', payload: { email, password: PASSWORD, ...extra } });
}

async function userRow(email: string) {
  return (
    await t.db.query<{ id: number; is_verified: boolean; has_disabled_newsletter: boolean; has_been_sent_verification_email: boolean }>(
      'SELECT id, is_verified, has_disabled_newsletter, has_been_sent_verification_email FROM "user" WHERE lower(email) = lower($1)',
      [email],
    )
  ).rows[0];
}

/** The token and email of the `n`th verification mail to `email`, read from the mailed link. */
async function verificationLink(email: string, n = 1): Promise<{ token: string; email: string; url: URL }> {
  const url = mailLink(await inbox.nth(email, n), '/user/verify-email/');
  const [, user, verify, token, mailed] = url.pathname.split('/');
  expect(`${user}/${verify}`).toBe('user/verify-email');
  return { token: decodeURIComponent(token!), email: decodeURIComponent(mailed!), url };
}

beforeAll(async () => {
  t = await createTestDb();
  await inbox.start();
  mailer = new Mailer({ db: t.db, smtpUrl: inbox.url, publicUrl: 'http://dashboard.test:8080' });
  verifier = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      verifierCalls.push(form);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ success: form.get('secret') === 'captcha-secret' && form.get('response') === 'human' }));
    });
  });
  await new Promise<void>((resolve) => verifier.listen(0, '127.0.0.1', () => resolve()));
  const verifyUrl = `http://127.0.0.1:${(verifier.address() as { port: number }).port}/siteverify`;
  const closedUrl = `http://127.0.0.1:${await freePort()}/siteverify`;
  // Every app shares the mailer and clock.
  captchaApp = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET, mailer, clock, accounts: { captcha: { secret: 'captcha-secret', siteKey: 'site-key-1', verifyUrl } } });
  deadCaptchaApp = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET, mailer, clock, accounts: { captcha: { secret: 'captcha-secret', verifyUrl: closedUrl, timeoutMs: 3000 } } });
  strictApp = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET, mailer, clock, accounts: { requireEmailVerification: true } });
  app = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET, mailer, clock });
  await app.listen({ port: 0, host: '127.0.0.1' });
  apiUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
});

afterAll(async () => {
  for (const a of [app, strictApp, captchaApp, deadCaptchaApp]) await a?.close();
  await new Promise<void>((resolve) => verifier.close(() => resolve()));
  await inbox.close();
  mailer.close();
  await t.drop();
});

describe('sign-up', () => {
  it('creates the account, stores the newsletter flag and mails a verification link to the dashboard route', async () => {
    const email = address('newsletter');
    const res = await register(app, email, { has_disabled_newsletter: true, 'g-recaptcha-response': 'dummy' });
    expect(res.statusCode, res.body).toBe(201);
    const row = await userRow(email);
    expect(row).toMatchObject({ is_verified: false, has_disabled_newsletter: true, has_been_sent_verification_email: true });
    const link = await verificationLink(email);
    expect(link.url.origin).toBe('http://dashboard.test:8080');
    expect(link.email).toBe(email);
    // Only the token's hash is stored.
    const stored = await t.db.query<{ token_hash: string }>('SELECT token_hash FROM email_verification_token WHERE "user" = $1', [row!.id]);
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0]!.token_hash).not.toContain(link.token);
    expect(stored.rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);

    const state = await app.inject({ method: 'GET', url: '/user/v1/account-state', headers: bearer(res.body) });
    expect(state.json()).toEqual({
      email,
      is_verified: false,
      must_be_verified: false,
      verification: 'missing',
      has_been_sent_verification_email: true,
      profile_complete: false,
    });
  });

  it('keeps the newsletter on when the flag is not sent', async () => {
    const email = address('default-newsletter');
    expect((await register(app, email)).statusCode).toBe(201);
    expect((await userRow(email))?.has_disabled_newsletter).toBe(false);
  });
});

describe('captcha (spec 1 §5)', () => {
  it('without a configured secret, any (dummy) response or none passes', async () => {
    expect((await register(app, address('dummy'), { 'g-recaptcha-response': 'dummy' })).statusCode).toBe(201);
  });

  it('with a verifier: a missing or refused response is 400 and creates nothing; a good one passes', async () => {
    const missing = address('captcha-missing');
    const r1 = await register(captchaApp, missing);
    expect(r1.statusCode).toBe(400);
    expect(r1.json()).toBe(ACCOUNT_MESSAGES.captchaRequired);
    expect(await userRow(missing)).toBeUndefined();

    const refused = address('captcha-refused');
    const r2 = await register(captchaApp, refused, { 'g-recaptcha-response': 'robot' });
    expect(r2.statusCode).toBe(400);
    expect(r2.json()).toBe(ACCOUNT_MESSAGES.captchaFailed);
    expect(await userRow(refused)).toBeUndefined();
    expect(inbox.to(refused)).toHaveLength(0);

    const good = address('captcha-good');
    const r3 = await register(captchaApp, good, { 'g-recaptcha-response': 'human' });
    expect(r3.statusCode, r3.body).toBe(201);
    expect(await userRow(good)).toBeDefined();
    const call = verifierCalls.at(-1)!;
    expect(call.get('secret')).toBe('captcha-secret');
    expect(call.get('response')).toBe('human');
  });

  it('an unreachable verifier answers 503 and creates nothing', async () => {
    const email = address('captcha-down');
    const res = await register(deadCaptchaApp, email, { 'g-recaptcha-response': 'human' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toBe(ACCOUNT_MESSAGES.captchaUnavailable);
    expect(await userRow(email)).toBeUndefined();
  });

  it('the site key and the verification requirement reach the dashboard; the secret does not', async () => {
    const withKey = await captchaApp.inject({ method: 'GET', url: '/config/dashboard' });
    expect(withKey.json()).toMatchObject({ captchaSiteKey: 'site-key-1', requireEmailVerification: false });
    expect(withKey.body).not.toContain('captcha-secret');
    expect((await strictApp.inject({ method: 'GET', url: '/config/dashboard' })).json()).toMatchObject({
      captchaSiteKey: null,
      requireEmailVerification: true,
    });
  });
});

describe('POST /user/v1/verify-email', () => {
  it('verifies with the mailed token through the SDK, answers a session token, and works only once', async () => {
    const email = address('verify');
    expect((await register(app, email)).statusCode).toBe(201);
    const link = await verificationLink(email);
    const sdk = sdkClient(apiUrl);
    const token = await sdk.auth.verifyEmail({ email: link.email, token: link.token });
    expect((await userRow(email))?.is_verified).toBe(true);
    const who = await app.inject({ method: 'GET', url: '/user/v1/whoami', headers: bearer(token) });
    expect(who.json()).toMatchObject({ email });

    const again = await app.inject({ method: 'POST', url: '/user/v1/verify-email', payload: { verificationToken: link.token, email } });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toBe(ACCOUNT_MESSAGES.verificationFailed);
  });

  it('refuses a token with another address, a made-up token and missing fields, changing nothing', async () => {
    const email = address('mismatch');
    expect((await register(app, email)).statusCode).toBe(201);
    const link = await verificationLink(email);
    const other = await app.inject({ method: 'POST', url: '/user/v1/verify-email', payload: { verificationToken: link.token, email: address('other') } });
    expect(other.statusCode).toBe(400);
    expect(other.json()).toBe(ACCOUNT_MESSAGES.verificationFailed);
    const madeUp = await app.inject({ method: 'POST', url: '/user/v1/verify-email', payload: { verificationToken: 'x'.repeat(43), email } });
    expect(madeUp.statusCode).toBe(400);
    const missing = await app.inject({ method: 'POST', url: '/user/v1/verify-email', payload: { email } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toBe(ACCOUNT_MESSAGES.verificationMissing);
    expect((await userRow(email))?.is_verified).toBe(false);
    // The token itself still works (a failed attempt does not use it up).
    const ok = await app.inject({ method: 'POST', url: '/user/v1/verify-email', payload: { verificationToken: link.token, email: email.toUpperCase() } });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('refuses an expired token', async () => {
    const email = address('expired');
    expect((await register(app, email)).statusCode).toBe(201);
    const link = await verificationLink(email);
    advance(EMAIL_VERIFICATION_TOKEN_TTL_SECONDS + 1);
    const res = await app.inject({ method: 'POST', url: '/user/v1/verify-email', payload: { verificationToken: link.token, email } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toBe(ACCOUNT_MESSAGES.verificationFailed);
    expect((await userRow(email))?.is_verified).toBe(false);
  });
});

describe('resending the verification mail (SDK auth.requestVerificationEmail)', () => {
  it('sends a new link, at most once per interval (429), and none to a verified user', async () => {
    const email = address('resend');
    const res = await register(app, email);
    expect(res.statusCode).toBe(201);
    await inbox.nth(email, 1);
    const sdk = sdkClient(apiUrl);
    await sdk.auth.loginWithToken(res.body);

    // Right after sign-up: too soon.
    await expect(sdk.auth.requestVerificationEmail()).rejects.toMatchObject({ statusCode: 429 });
    advance(VERIFICATION_EMAIL_INTERVAL_SECONDS + 1);
    await sdk.auth.requestVerificationEmail();
    const second = await verificationLink(email, 2);
    await expect(sdk.auth.requestVerificationEmail()).rejects.toMatchObject({ statusCode: 429 });

    // Both links work until one is used; then the other is used up too.
    const first = await verificationLink(email, 1);
    expect(first.token).not.toBe(second.token);
    await sdk.auth.verifyEmail({ email, token: second.token });
    const old = await app.inject({ method: 'POST', url: '/user/v1/verify-email', payload: { verificationToken: first.token, email } });
    expect(old.statusCode).toBe(400);

    advance(VERIFICATION_EMAIL_INTERVAL_SECONDS + 1);
    await sdk.auth.requestVerificationEmail();
    await new Promise((r) => setTimeout(r, 200));
    expect(inbox.to(email)).toHaveLength(2);
  });
});

describe('the profile step (PATCH /user/profile)', () => {
  it('requires all four fields with the rule messages, then stores them', async () => {
    const email = address('profile');
    const res = await register(app, email);
    const token = res.body;
    const partial = await app.inject({
      method: 'PATCH',
      url: '/user/profile',
      headers: bearer(token),
      payload: { first_name: 'Ada', last_name: '  ', company: 'Engines', account_type: 'personal' },
    });
    expect(partial.statusCode).toBe(400);
    expect(partial.json()).toBe('Last name is required');
    const badType = await app.inject({
      method: 'PATCH',
      url: '/user/profile',
      headers: bearer(token),
      payload: { first_name: 'Ada', last_name: 'Lovelace', company: 'Engines', account_type: 'business' },
    });
    expect(badType.statusCode).toBe(400);
    expect(badType.json()).toBe('Account type must be personal or professional');
    const unchanged = await t.db.query('SELECT first_name FROM "user" WHERE lower(email) = lower($1)', [email]);
    expect(unchanged.rows[0]).toEqual({ first_name: null });

    const ok = await app.inject({
      method: 'PATCH',
      url: '/user/profile',
      headers: bearer(token),
      payload: { first_name: ' Ada ', last_name: 'Lovelace', company: 'Engines', account_type: 'professional' },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ first_name: 'Ada', last_name: 'Lovelace', company: 'Engines', account_type: 'professional' });
    const state = await app.inject({ method: 'GET', url: '/user/v1/account-state', headers: bearer(token) });
    expect(state.json()).toMatchObject({ profile_complete: true });
  });

  it('needs a signed-in user', async () => {
    const res = await app.inject({ method: 'PATCH', url: '/user/profile', payload: { first_name: 'A', last_name: 'B', company: 'C', account_type: 'personal' } });
    expect(res.statusCode).toBe(401);
  });
});

describe('FLOTILLA_REQUIRE_EMAIL_VERIFICATION', () => {
  it('refuses an unverified user the data API (but not their own record) until verified', async () => {
    const email = address('strict');
    const res = await register(strictApp, email);
    expect(res.statusCode).toBe(201);
    const token = res.body;
    const state = await strictApp.inject({ method: 'GET', url: '/user/v1/account-state', headers: bearer(token) });
    expect(state.json()).toMatchObject({ must_be_verified: true, verification: 'pending' });

    const refused = await strictApp.inject({ method: 'GET', url: '/v7/application?$select=id', headers: bearer(token) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toBe(ACCOUNT_MESSAGES.verificationRequired);
    const write = await strictApp.inject({ method: 'POST', url: '/v7/organization', headers: bearer(token), payload: { name: `org-${randomBytes(3).toString('hex')}` } });
    expect(write.statusCode).toBe(403);
    const own = await strictApp.inject({ method: 'GET', url: '/v7/user?$select=id,username', headers: bearer(token) });
    expect(own.statusCode).toBe(200);

    const link = await verificationLink(email);
    const verified = await strictApp.inject({ method: 'POST', url: '/user/v1/verify-email', payload: { verificationToken: link.token, email } });
    expect(verified.statusCode).toBe(200);
    const allowed = await strictApp.inject({ method: 'GET', url: '/v7/application?$select=id', headers: bearer(token) });
    expect(allowed.statusCode).toBe(200);
    expect((await strictApp.inject({ method: 'GET', url: '/user/v1/account-state', headers: bearer(token) })).json()).toMatchObject({
      verification: 'verified',
    });
  });

  it('is off by default: an unverified user uses the data API', async () => {
    const res = await register(app, address('lenient'));
    const list = await app.inject({ method: 'GET', url: '/v7/application?$select=id', headers: bearer(res.body) });
    expect(list.statusCode).toBe(200);
  });
});
