import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { createTestDb, TEST_JWT_SECRET } from './harness.js';

let app: FastifyInstance;
let dir: string;
let drop: () => Promise<void>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'flotilla-web-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><script type="module" src="/assets/app.js"></script>');
  await writeFile(join(dir, 'assets/app.js'), 'console.log(1)');
  const t = await createTestDb();
  drop = t.drop;
  // A trailing slash, as main.ts passes it.
  app = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET, webDistDir: dir + '/' });
});
afterAll(async () => {
  await app.close();
  await drop();
  await rm(dir, { recursive: true, force: true });
});

describe('dashboard serving', () => {
  it('serves assets with their type and long caching', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.body).toBe('console.log(1)');
  });

  it('answers SPA routes with index.html under a strict CSP without inline scripts', async () => {
    for (const url of ['/', '/fleets', '/orgs/12/members', '/user/verify-email/abc/x@y.z']) {
      const res = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('lets /login/cli post the token to the IP-address callback it names, and to nothing else', async () => {
    // What balena CLI opens: the callback encoded with encodeURIComponent, then every % as %25.
    const cli = (callback: string) => `/login/cli/${encodeURIComponent(callback).replace(/%/g, '%25')}`;
    const formAction = async (url: string) => {
      const res = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(200);
      return /form-action ([^;]*)/.exec(String(res.headers['content-security-policy']))?.[1]?.split(' ');
    };
    const loopback = ["'self'", 'http://localhost:*', 'http://127.0.0.1:*'];
    expect(await formAction('/')).toEqual(loopback);
    expect(await formAction(cli('http://192.168.1.20:8989/auth'))).toEqual([...loopback, 'http://192.168.1.20:8989']);
    // Already covered, refused by the page (a host name, credentials), or not expressible in CSP.
    expect(await formAction(cli('http://127.0.0.1:59581/auth'))).toEqual(loopback);
    expect(await formAction(cli('http://evil.example:8989/auth'))).toEqual(loopback);
    expect(await formAction(cli('http://user:pw@10.0.0.2:8989/auth'))).toEqual(loopback);
    expect(await formAction(cli('http://[::1]:8989/auth'))).toEqual(loopback);
    expect(await formAction('/login/cli/not-a-url')).toEqual(loopback);
    // The rest of the policy is the page's usual one.
    const res = await app.inject({ method: 'GET', url: cli('http://10.1.2.3:1234/'), headers: { accept: 'text/html' } });
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('answers a missing asset and unknown API paths with 404, not the dashboard', async () => {
    expect((await app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
    const api = await app.inject({ method: 'GET', url: '/v7' });
    expect(api.statusCode).toBe(404);
    const unknown = await app.inject({ method: 'GET', url: '/user/v1/nothing-here', headers: { accept: 'application/json' } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/^application\/json/);
  });

  it('does not serve files outside the build directory', async () => {
    const res = await app.inject({ method: 'GET', url: '/..%2f..%2fetc%2fpasswd.txt' });
    expect(res.body).not.toContain('root:');
  });
});
