import { LOGIN_MAX_FAILURES } from '@flotilla/model';
import { LOGIN_MAX_FAILURES_PER_ADDRESS } from '../../infra/auth/login-throttle.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../../test/harness.js';
import { hex } from '../../../test/support/fleet-helpers.js';

// Issue 11 (1h): the failed-login lock counts per account (username and e-mail share one
// counter), atomically (parallel tries cannot all pass the check), and per source address,
// so a stranger cannot lock the owner out (still 10 per account per 2 h from one address).
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

const PASSWORD = 'the-right-password';
const login = (username: string, password: string, ip = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/login_', payload: { username, password }, remoteAddress: ip });

describe('the failed-login lock', () => {
  it('counts username and e-mail as one account: the right password by e-mail is refused once the username used up the tries', async () => {
    const u = await signUp(t.app, `lock-${hex(4)}@example.com`, PASSWORD);
    const ip = '10.1.0.1';
    for (let i = 0; i < LOGIN_MAX_FAILURES / 2; i++) expect((await login(u.username, 'wrong-password', ip)).statusCode).toBe(401);
    for (let i = 0; i < LOGIN_MAX_FAILURES / 2; i++) expect((await login(u.email.toUpperCase(), 'wrong-password', ip)).statusCode).toBe(401);
    const byEmail = await login(u.email, PASSWORD, ip);
    expect(byEmail.statusCode).toBe(429);
    expect(Number(byEmail.headers['retry-after'])).toBeGreaterThan(7000);
    expect((await login(u.username, PASSWORD, ip)).statusCode).toBe(429);
  });

  it('lets at most the limit of 40 parallel wrong tries through to the password check', async () => {
    const u = await signUp(t.app, `race-${hex(4)}@example.com`, PASSWORD);
    const ip = '10.1.0.2';
    const results = await Promise.all(Array.from({ length: 40 }, () => login(u.username, 'wrong-password', ip)));
    const checked = results.filter((r) => r.statusCode === 401).length;
    expect(results.every((r) => r.statusCode === 401 || r.statusCode === 429)).toBe(true);
    expect(checked).toBeLessThanOrEqual(LOGIN_MAX_FAILURES);
    expect((await login(u.username, PASSWORD, ip)).statusCode).toBe(429);
  });

  it('a stranger failing from another address does not lock the owner out', async () => {
    const u = await signUp(t.app, `owner-${hex(4)}@example.com`, PASSWORD);
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) expect((await login(u.email, 'wrong-password', '203.0.113.9')).statusCode).toBe(401);
    expect((await login(u.email, PASSWORD, '203.0.113.9')).statusCode).toBe(429);
    expect((await login(u.email, PASSWORD, '198.51.100.7')).statusCode).toBe(200);
  });

  it('a successful login clears that address\u2019s failures', async () => {
    const u = await signUp(t.app, `clear-${hex(4)}@example.com`, PASSWORD);
    const ip = '10.1.0.3';
    for (let i = 0; i < LOGIN_MAX_FAILURES - 1; i++) expect((await login(u.username, 'wrong-password', ip)).statusCode).toBe(401);
    expect((await login(u.username, PASSWORD, ip)).statusCode).toBe(200);
    for (let i = 0; i < LOGIN_MAX_FAILURES - 1; i++) expect((await login(u.username, 'wrong-password', ip)).statusCode).toBe(401);
    expect((await login(u.username, PASSWORD, ip)).statusCode).toBe(200);
  });

  it('one address failing over many accounts is throttled as a whole; other addresses are not', async () => {
    const u = await signUp(t.app, `spray-${hex(4)}@example.com`, PASSWORD);
    const ip = '10.1.0.4';
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ADDRESS; i += 10) {
      const batch = await Promise.all(Array.from({ length: 10 }, (_, j) => login(`nobody-${i + j}-${hex(3)}`, 'wrong-password', ip)));
      expect(batch.map((r) => r.statusCode)).toEqual(Array(10).fill(401));
    }
    expect((await login(u.username, PASSWORD, ip)).statusCode).toBe(429);
    expect((await login(u.username, PASSWORD, '10.1.0.5')).statusCode).toBe(200);
  });
});
