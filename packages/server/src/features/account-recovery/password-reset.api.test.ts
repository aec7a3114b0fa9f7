import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  ACCOUNT_MESSAGES,
  PASSWORD_RESET_CODE_TTL_SECONDS,
  PASSWORD_RESET_EMAIL_INTERVAL_SECONDS,
  PASSWORD_RESET_IP_MAX_REQUESTS,
} from '@flotilla/model';
import { buildApp } from '../../app.js';
import { Mailer } from '../../infra/mail/mailer.js';
import { bearer, createTestDb, sdkClient, signUp, TEST_JWT_SECRET } from '../../../test/harness.js';
import { mailLink, SmtpInbox } from '../../../test/support/smtp-inbox.js';
import { eventually } from '../../../test/support/cloud-link.js';

/*
 * Password reset (spec 1 §2 /password-reset, /user/reset-password/{loginCode}; §5; §8):
 * the request answers the same for unknown addresses, the mailed login code works once and
 * expires (movable clock), requests are rate-limited per address and per IP with 429 and the
 * next valid time, the new password follows the 8–64 rule, and a reset ends every session.
 * Real PostgreSQL and a real SMTP server in-process.
 */
let t: Awaited<ReturnType<typeof createTestDb>>;
const inbox = new SmtpInbox();
let mailer: Mailer;
let app: FastifyInstance;
let captchaApp: FastifyInstance;
let apiUrl: string;
let nowMs = Date.now();
const clock = () => nowMs;
const advance = (seconds: number) => {
  nowMs += seconds * 1000;
};

const OLD = 'correct horse battery';
const NEW = 'a brand new passphrase';
const address = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.com`;
let ipCounter = 0;
/** Each test asks from its own IP, so the per-IP limit of one test does not reach another. */
const nextIp = () => `10.77.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

function requestReset(email: string, ip: string, target: FastifyInstance = app, body: Record<string, unknown> = {}) {
  return target.inject({ method: 'POST', url: `/user/v1/reset-password/${encodeURIComponent(email)}`, payload: body, remoteAddress: ip });
}
function reset(resetCode: string | undefined, password: string) {
  return app.inject({ method: 'POST', url: '/user/v1/reset-password', payload: { resetCode, password } });
}
function login(username: string, password: string) {
  return app.inject({ method: 'POST', url: '/login_', payload: { username, password } });
}
/** The login code of the `n`th reset mail to `email`, read from the link to the dashboard route. */
async function mailedCode(email: string, n: number): Promise<string> {
  const mails = await eventually(
    async () => resetMails(email),
    (l) => l.length >= n,
  );
  const url = mailLink(mails[n - 1]!, '/user/reset-password/');
  expect(url.origin).toBe('http://dashboard.test:8080');
  return decodeURIComponent(url.pathname.split('/')[3]!);
}
/** Mails to `email` whose subject is the reset mail's. */
const resetMails = (email: string) => inbox.to(email).filter((m) => m.text.includes('Reset your Flotilla password'));

beforeAll(async () => {
  t = await createTestDb();
  await inbox.start();
  mailer = new Mailer({ db: t.db, smtpUrl: inbox.url, publicUrl: 'http://dashboard.test:8080' });
  captchaApp = await buildApp({
    db: t.db,
    jwtSecret: TEST_JWT_SECRET,
    mailer,
    clock, accounts: { captcha: { secret: 's3cret', verifyUrl: 'http://127.0.0.1:9/siteverify', timeoutMs: 2000 } },
  });
  app = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET, mailer, clock });
  await app.listen({ port: 0, host: '127.0.0.1' });
  apiUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
});

afterAll(async () => {
  await app?.close();
  await captchaApp?.close();
  await inbox.close();
  mailer.close();
  await t.drop();
});

describe('requesting a reset', () => {
  it('answers the same for a known and an unknown address; only the account holder gets a mail', async () => {
    const user = await signUp(app, address('known'), OLD);
    const unknown = address('nobody');
    const known = await requestReset(user.email, nextIp());
    const none = await requestReset(unknown, nextIp());
    expect(known.statusCode).toBe(200);
    expect(none.statusCode).toBe(200);
    expect(none.body).toBe(known.body);
    await mailedCode(user.email, 1);
    expect((await t.db.query('SELECT 1 FROM email_outbox WHERE recipient = $1', [unknown])).rowCount).toBe(0);
    // Only the hash of the code is kept.
    const code = await mailedCode(user.email, 1);
    const stored = await t.db.query<{ code_hash: string }>('SELECT code_hash FROM password_reset_code WHERE "user" = $1', [user.userId]);
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0]!.code_hash).not.toBe(code);
  });

  it('refuses a malformed address with 400', async () => {
    const res = await requestReset('not-an-email', nextIp());
    expect(res.statusCode).toBe(400);
  });

  it('rate-limits per address with 429 and the next valid time, known or not', async () => {
    const user = await signUp(app, address('limited'), OLD);
    for (const email of [user.email, address('limited-unknown')]) {
      expect((await requestReset(email, nextIp())).statusCode).toBe(200);
      const started = nowMs;
      const again = await requestReset(email.toUpperCase(), nextIp());
      expect(again.statusCode).toBe(429);
      const body = again.json<{ message: string; nextValidTime: string }>();
      expect(new Date(body.nextValidTime).getTime()).toBe(started + PASSWORD_RESET_EMAIL_INTERVAL_SECONDS * 1000);
      expect(body.message).toBe('Too many requests, available again in 1 minute');
      expect(again.headers['retry-after']).toBe(String(PASSWORD_RESET_EMAIL_INTERVAL_SECONDS));
      advance(PASSWORD_RESET_EMAIL_INTERVAL_SECONDS);
      expect((await requestReset(email, nextIp())).statusCode).toBe(200);
    }
    // Two accepted requests, two mails; the refused one sent nothing.
    await mailedCode(user.email, 2);
    expect(resetMails(user.email)).toHaveLength(2);
  });

  it('rate-limits per IP address', async () => {
    const ip = nextIp();
    for (let i = 0; i < PASSWORD_RESET_IP_MAX_REQUESTS; i++) expect((await requestReset(address(`ip${i}`), ip)).statusCode).toBe(200);
    const refused = await requestReset(address('ip-over'), ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ nextValidTime: expect.any(String) });
    expect((await requestReset(address('other-ip'), nextIp())).statusCode).toBe(200);
  });

  it('checks the captcha when one is configured (an unreachable verifier is 503)', async () => {
    const missing = await requestReset(address('captcha'), nextIp(), captchaApp);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toBe(ACCOUNT_MESSAGES.captchaRequired);
    const down = await requestReset(address('captcha'), nextIp(), captchaApp, { 'g-recaptcha-response': 'human' });
    expect(down.statusCode).toBe(503);
  });
});

describe('resetting with the mailed login code', () => {
  it('sets the new password once, ends every session and verifies the address', async () => {
    const user = await signUp(app, address('reset'), OLD);
    const sdk = sdkClient(apiUrl);
    await sdk.auth.loginWithToken(user.token);
    expect(await sdk.auth.isLoggedIn()).toBe(true);

    expect((await requestReset(user.email, nextIp())).statusCode).toBe(200);
    const code = await mailedCode(user.email, 1);
    const res = await reset(code, NEW);
    expect(res.statusCode, res.body).toBe(200);

    expect((await login(user.email, OLD)).statusCode).toBe(401);
    const fresh = await login(user.email, NEW);
    expect(fresh.statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/user/v1/whoami', headers: bearer(fresh.body) })).statusCode).toBe(200);
    // The session opened before the reset is over.
    expect((await app.inject({ method: 'GET', url: '/user/v1/whoami', headers: bearer(user.token) })).statusCode).toBe(401);
    expect((await t.db.query<{ is_verified: boolean }>('SELECT is_verified FROM "user" WHERE id = $1', [user.userId])).rows[0]?.is_verified).toBe(true);

    const reused = await reset(code, 'yet another passphrase');
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toBe(ACCOUNT_MESSAGES.resetCodeInvalid);
    expect((await login(user.email, NEW)).statusCode).toBe(200);
  });

  it('refuses an expired code with the spec message and keeps the password', async () => {
    const user = await signUp(app, address('expired'), OLD);
    expect((await requestReset(user.email, nextIp())).statusCode).toBe(200);
    const code = await mailedCode(user.email, 1);
    advance(PASSWORD_RESET_CODE_TTL_SECONDS + 1);
    const res = await reset(code, NEW);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toBe(ACCOUNT_MESSAGES.resetCodeExpired);
    expect((await login(user.email, OLD)).statusCode).toBe(200);
  });

  it('refuses unknown or missing codes and passwords outside 8–64, without using the code', async () => {
    const user = await signUp(app, address('rules'), OLD);
    expect((await requestReset(user.email, nextIp())).statusCode).toBe(200);
    const code = await mailedCode(user.email, 1);

    const unknown = await reset('not-a-code', NEW);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toBe(ACCOUNT_MESSAGES.resetCodeInvalid);
    const missing = await reset(undefined, NEW);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toBe(ACCOUNT_MESSAGES.resetCodeRequired);
    const short = await reset(code, 'short');
    expect(short.statusCode).toBe(400);
    expect(short.json()).toBe('Password must be at least 8 characters');
    const long = await reset(code, 'x'.repeat(65));
    expect(long.statusCode).toBe(400);
    expect(long.json()).toBe('Password exceeds limit, must be reset to at most 64 characters');
    expect((await login(user.email, OLD)).statusCode).toBe(200);

    expect((await reset(code, 'x'.repeat(64))).statusCode).toBe(200);
    expect((await login(user.email, 'x'.repeat(64))).statusCode).toBe(200);
  });
});
