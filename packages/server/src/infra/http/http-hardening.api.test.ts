import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { PASSWORD_RESET_IP_MAX_REQUESTS } from '@flotilla/model';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { Mailer } from '../mail/mailer.js';
import { bearer, buildTestApp, signUp, TEST_JWT_SECRET, type TestApp } from '../../../test/harness.js';
import { hex } from '../../../test/support/fleet-helpers.js';

// Issue 11: 1i (trust proxies only as configured) and 1j (headers on API responses, HSTS,
// no-store on credentials, no e-mail enumeration at sign-up, Fastify's own errors in the
// dialect's shape).
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

const resetFrom = (app: FastifyInstance, peer: string, forwardedFor: string) =>
  app.inject({
    method: 'POST',
    url: `/user/v1/reset-password/${encodeURIComponent(`nobody-${hex(4)}@example.com`)}`,
    payload: {},
    remoteAddress: peer,
    headers: { 'x-forwarded-for': forwardedFor },
  });

describe('X-Forwarded-For (1i)', () => {
  it('is ignored by default: a spoofed header does not escape the per-address reset limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= PASSWORD_RESET_IP_MAX_REQUESTS; i++) statuses.push((await resetFrom(t.app, '10.9.0.1', `198.51.100.${i + 1}`)).statusCode);
    expect(statuses.slice(0, PASSWORD_RESET_IP_MAX_REQUESTS)).toEqual(Array(PASSWORD_RESET_IP_MAX_REQUESTS).fill(200));
    expect(statuses[PASSWORD_RESET_IP_MAX_REQUESTS]).toBe(429);
  });

  it('is believed from a configured proxy only (FLOTILLA_TRUST_PROXY list)', async () => {
    const app = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET, trustProxy: ['10.9.0.2'] });
    try {
      for (let i = 0; i <= PASSWORD_RESET_IP_MAX_REQUESTS; i++) expect((await resetFrom(app, '10.9.0.2', `192.0.2.${i + 1}`)).statusCode).toBe(200);
      const statuses: number[] = [];
      for (let i = 0; i <= PASSWORD_RESET_IP_MAX_REQUESTS; i++) statuses.push((await resetFrom(app, '10.9.0.3', `192.0.2.${i + 100}`)).statusCode);
      expect(statuses[PASSWORD_RESET_IP_MAX_REQUESTS]).toBe(429);
    } finally {
      await app.close();
    }
  });
});

describe('response headers (1j)', () => {
  it('API responses carry nosniff, frame and referrer headers; no HSTS on an http public URL', async () => {
    const u = await signUp(t.app);
    for (const res of [
      await t.app.inject({ method: 'GET', url: '/v7/application', headers: bearer(u.token) }),
      await t.app.inject({ method: 'GET', url: '/v7/nothing-here' }),
      await t.app.inject({ method: 'GET', url: '/ping' }),
    ]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('same-origin');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('HSTS when the public URL is https', async () => {
    const mailer = new Mailer({ db: t.db, publicUrl: 'https://fleet.example.com' });
    const app = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET, mailer });
    try {
      const res = await app.inject({ method: 'GET', url: '/ping' });
      expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d{7,}/);
    } finally {
      await app.close();
      mailer.close();
    }
  });

  it('/login_ and the token refresh answer Cache-Control: no-store', async () => {
    const u = await signUp(t.app, `nostore-${hex(4)}@example.com`, 'correct horse battery');
    const login = await t.app.inject({ method: 'POST', url: '/login_', payload: { username: u.email, password: 'correct horse battery' } });
    expect(login.statusCode).toBe(200);
    expect(login.headers['cache-control']).toBe('no-store');
    const refresh = await t.app.inject({ method: 'GET', url: '/user/v1/refresh-token', headers: bearer(u.token) });
    expect(refresh.statusCode).toBe(200);
    expect(refresh.headers['cache-control']).toBe('no-store');
  });
});

describe('sign-up with an e-mail that has an account (1j)', () => {
  it('is answered like a sign-up (201 and a token-shaped body) that opens nothing, and the owner is mailed once', async () => {
    const owner = await signUp(t.app, `owner-${hex(4)}@example.com`);
    const users = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM "user"')).rows[0]!.n;
    const before = await users();
    const fresh = await t.app.inject({ method: 'POST', url: '/user/register', payload: { email: `fresh-${hex(4)}@example.com`, password: 'correct horse battery' } });
    const taken = await t.app.inject({ method: 'POST', url: '/user/register', payload: { email: owner.email.toUpperCase(), password: 'correct horse battery' } });
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(taken.headers['content-type']).toBe(fresh.headers['content-type']);
    expect(taken.body).not.toMatch(/taken/i);
    const claims = (token: string) => Object.keys(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as object).sort();
    expect(claims(taken.body)).toEqual(claims(fresh.body));
    expect(await users()).toBe(before + 1);
    const use = await t.app.inject({ method: 'GET', url: '/user/v1/whoami', headers: bearer(taken.body) });
    expect(use.statusCode).toBe(401);
    await t.app.inject({ method: 'POST', url: '/user/register', payload: { email: owner.email, password: 'correct horse battery' } });
    const { rows } = await t.db.query<{ subject: string }>('SELECT subject FROM email_outbox WHERE lower(recipient) = lower($1) AND subject LIKE $2', [
      owner.email,
      'Someone tried to sign up%',
    ]);
    expect(rows).toHaveLength(1);
  });
});

describe("Fastify's own refusals (1j)", () => {
  it('an oversized header answers 431 with a JSON string body', async () => {
    const app = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const port = (app.server.address() as { port: number }).port;
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write(`GET /ping HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`);
        });
        let data = '';
        socket.on('data', (d) => (data += d.toString()));
        socket.on('end', () => resolve(data));
        socket.on('error', (err) => (data ? resolve(data) : reject(err)));
      });
      expect(raw).toMatch(/^HTTP\/1\.1 431 /);
      const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
      expect(raw).toMatch(/content-type: application\/json/i);
      expect(typeof JSON.parse(body)).toBe('string');
    } finally {
      await app.close();
    }
  });

  it('a HEAD with an oversized URL answers 431 without a body, which a client reads as one whole response (fuzzer, issue 21)', async () => {
    const app = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET });
    try {
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      // Node's client failed with "Data after `Connection: close`" when the 431 carried a body.
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(`${url}/v2/x/blobs/${'a'.repeat(64 * 1024)}`, { method: 'HEAD' }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end();
      });
      expect(status).toBe(431);
      const get = await fetch(`${url}/v2/x/blobs/${'a'.repeat(64 * 1024)}`);
      expect(get.status).toBe(431);
      expect(typeof (await get.json())).toBe('string');
    } finally {
      await app.close();
    }
  });

  it('a HEAD whose oversized headers arrive after its request line (another socket read) still gets no body (fuzzer seed 941413123)', async () => {
    const app = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET });
    try {
      const url = new URL(await app.listen({ port: 0, host: '127.0.0.1' }));
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(url.port), url.hostname, () => {
          socket.write('HEAD /v2/x HTTP/1.1\r\nHost: a\r\nX-Pad: ');
          // The rest in a later read: the chunk the parser refuses no longer starts with "HEAD ".
          setTimeout(() => socket.write(`${'a'.repeat(70 * 1024)}\r\n\r\n`), 100);
        });
        let data = '';
        socket.on('data', (d) => (data += d.toString('latin1')));
        socket.on('end', () => resolve(data));
        socket.on('error', (err) => (data ? resolve(data) : reject(err)));
      });
      expect(raw).toMatch(/^HTTP\/1\.1 431 /);
      expect(raw).toMatch(/content-length: 0\r\n/i);
      expect(raw.slice(raw.indexOf('\r\n\r\n') + 4)).toBe('');
    } finally {
      await app.close();
    }
  });

  it('an unknown method is refused with a message, also after an earlier request in the same read (fuzzer seeds 849139478, 1183448883)', async () => {
    const app = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET });
    try {
      const url = new URL(await app.listen({ port: 0, host: '127.0.0.1' }));
      const send = (text: string) =>
        new Promise<string>((resolve, reject) => {
          const socket = connect(Number(url.port), url.hostname, () => socket.write(text));
          let data = '';
          socket.on('data', (d) => (data += d.toString('latin1')));
          socket.on('end', () => resolve(data));
          socket.on('error', (err) => (data ? resolve(data) : reject(err)));
        });
      const lastAnswer = (raw: string) => raw.slice(raw.lastIndexOf('HTTP/1.1 '));
      const alone = await send('FOO /v7/application HTTP/1.1\r\nHost: a\r\n\r\n');
      // The chunk the parser refuses starts with the earlier request (keep-alive).
      const after = await send('GET /ping HTTP/1.1\r\nHost: a\r\n\r\nFOO /v7/application HTTP/1.1\r\nHost: a\r\n\r\n');
      // A malformed request line after an earlier request: the last request line decides.
      const badLine = await send('GET /ping HTTP/1.1\r\nHost: a\r\n\r\nPATCH /device/v3/sta te HTTP/1.1\r\nHost: a\r\n\r\n');
      for (const raw of [alone, lastAnswer(after), lastAnswer(badLine)]) {
        expect(raw).toMatch(/^HTTP\/1\.1 400 /);
        expect(typeof JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toBe('string');
      }
      const badHead = lastAnswer(await send('GET /ping HTTP/1.1\r\nHost: a\r\n\r\nHEAD /device/v3/sta te HTTP/1.1\r\nHost: a\r\n\r\n'));
      expect(badHead).toMatch(/^HTTP\/1\.1 400 /);
      expect(badHead.slice(badHead.indexOf('\r\n\r\n') + 4)).toBe('');
    } finally {
      await app.close();
    }
  });
});
