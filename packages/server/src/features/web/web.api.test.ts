import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_CATALOGUE } from '@flotilla/model';
import { buildApp } from '../../app.js';
import { createTestDb, TEST_JWT_SECRET } from '../../../test/harness.js';

let app: FastifyInstance;
let dir: string;
let drop: () => Promise<void>;
// A real chunk's worth of JavaScript (repetitive, as bundles are), an image and a font that
// would compress too if the server did not know better.
const BIG_JS = Array.from({ length: 400 }, (_, i) => `export function handler${i}(event) { return event.target.value + ${i}; }`).join('\n');
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(4000)]);
const WOFF2 = Buffer.concat([Buffer.from('wOF2'), Buffer.alloc(4000)]);
const INDEX_HTML = `<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head><body>${'<div id="root"></div>'.repeat(100)}</body></html>`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'flotilla-web-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(join(dir, 'index.html'), INDEX_HTML);
  await writeFile(join(dir, 'assets/app.js'), 'console.log(1)');
  await writeFile(join(dir, 'assets/chunk-abc.js'), BIG_JS);
  await writeFile(join(dir, 'assets/logo-abc.png'), PNG);
  await writeFile(join(dir, 'assets/font-abc.woff2'), WOFF2);
  // Incompressible (random bytes): its compressed variants would be larger, so there are none.
  await writeFile(join(dir, 'assets/noise-abc.js'), randomBytes(3000));
  const t = await createTestDb();
  drop = t.drop;
  // A trailing slash, as main.ts passes it.
  app = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET, webDistDir: dir + '/' });
  // A build without compressed files (this one): gzip is made before the server answers,
  // brotli in the background, each file served compressed as soon as it is ready.
  const gzipped = await app.inject({ method: 'GET', url: '/assets/chunk-abc.js', headers: { 'accept-encoding': 'gzip' } });
  expect(gzipped.headers['content-encoding']).toBe('gzip');
  let codings: unknown[] = [];
  for (let i = 0; i < 600 && (codings.length === 0 || !codings.every((c) => c === 'br')); i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 50));
    codings = await Promise.all(
      ['/', '/assets/chunk-abc.js'].map(async (url) => (await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } })).headers['content-encoding']),
    );
  }
  expect(codings, 'brotli variants made in the background within 30 s').toEqual(['br', 'br']);
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

  it("allows the configured Stripe.js origin (and Stripe's API and 3-D Secure hosts) only when billing runs with Stripe; /config/dashboard names the script and the seller", async () => {
    const stripe = { kind: 'stripe' as const, secretKey: 'sk_test_x', publishableKey: 'pk_test_x', jsUrl: 'https://js.stripe.com/v3/' };
    const seller = { name: 'Fleet Ops Ltd', address: ['1 Harbour Road'], email: 'billing@fleetops.test', agreementUrl: 'https://fleetops.test/terms' };
    const withStripe = await buildApp({ db: app.context.db, jwtSecret: TEST_JWT_SECRET, webDistDir: dir, billing: { enabled: true, provider: stripe, catalogue: { ...DEFAULT_CATALOGUE, seller } } });
    const billingOff = await buildApp({ db: app.context.db, jwtSecret: TEST_JWT_SECRET, webDistDir: dir, billing: { enabled: false, provider: stripe } });
    try {
      const csp = String((await withStripe.inject({ method: 'GET', url: '/orgs/1/billing', headers: { accept: 'text/html' } })).headers['content-security-policy']);
      expect(/script-src ([^;]*)/.exec(csp)?.[1]?.split(' ')).toEqual(["'self'", 'https://js.stripe.com']);
      expect(/frame-src ([^;]*)/.exec(csp)?.[1]?.split(' ')).toEqual(['https://js.stripe.com', 'https://hooks.stripe.com']);
      expect(/connect-src ([^;]*)/.exec(csp)?.[1]?.split(' ')).toEqual(["'self'", 'https://js.stripe.com', 'https://api.stripe.com']);
      expect((await withStripe.inject({ method: 'GET', url: '/config/dashboard' })).json()).toMatchObject({
        stripePublishableKey: 'pk_test_x',
        stripeJsUrl: 'https://js.stripe.com/v3/',
        billingSeller: { name: 'Fleet Ops Ltd', email: 'billing@fleetops.test', agreementUrl: 'https://fleetops.test/terms' },
      });
      const offCsp = String((await billingOff.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } })).headers['content-security-policy']);
      expect(offCsp).not.toContain('stripe.com');
      expect((await billingOff.inject({ method: 'GET', url: '/config/dashboard' })).json()).toMatchObject({ stripeJsUrl: null, billingSeller: null });
    } finally {
      await withStripe.close();
      await billingOff.close();
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

  it("reads which paths are the API's from the app's own routes: every route root answers unknown paths in JSON, browsers still get the page", async () => {
    // Roots of routes that features register (fleet restart, OAuth, preflight checks, device
    // types, files…), none of them in a hand-kept list.
    const roots = [...new Set(app.routeInventory.map((r) => r.url.split('/')[1] ?? ''))].filter((r) => r !== '' && !r.startsWith(':') && !r.startsWith('*'));
    expect(roots).toEqual(expect.arrayContaining(['application', 'oauth', 'device-types', 'supervisor', 'user']));
    for (const root of roots) {
      const res = await app.inject({ method: 'GET', url: `/${root}/no/such/thing`, headers: { accept: 'application/json' } });
      // The route's own 4xx (the data API's parse error, an auth refusal) or the JSON 404: never the page.
      expect([400, 401, 403, 404, 405], root).toContain(res.statusCode);
      expect(res.headers['content-type'], root).toMatch(/^application\/json/);
    }
    // A browser navigation under an API root is a dashboard route (/user/verify-email/…).
    const page = await app.inject({ method: 'GET', url: '/user/verify-email/abc', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    // Paths outside every API root stay the dashboard's.
    expect((await app.inject({ method: 'GET', url: '/fleets/12/devices' })).headers['content-type']).toMatch(/^text\/html/);
  });

  it('does not serve files outside the build directory', async () => {
    const res = await app.inject({ method: 'GET', url: '/..%2f..%2fetc%2fpasswd.txt' });
    expect(res.body).not.toContain('root:');
  });

  const get = (url: string, acceptEncoding?: string, extra: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers: { ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }), ...extra } });
  const decode = (encoding: string | undefined, body: Buffer) =>
    encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;

  it('sends each asset pre-compressed in the coding Accept-Encoding prefers, with Vary, its own length and ETag, and the page headers', async () => {
    const etags = new Set<string>();
    for (const [accept, expected] of [
      ['gzip, deflate, br, zstd', 'br'], // what Chromium sends
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['x-gzip', 'gzip'],
      ['gzip;q=1, br;q=0.5', 'gzip'],
      ['br;q=0, gzip;q=0.8', 'gzip'],
      ['*', 'br'],
      ['identity', undefined],
      ['br;q=0, gzip;q=0', undefined],
      ['gzip;q=0.5, identity', undefined],
      [undefined, undefined],
    ] as const) {
      const res = await get('/assets/chunk-abc.js', accept);
      expect(res.statusCode, accept).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe(expected);
      expect(res.headers.vary, accept).toBe('Accept-Encoding');
      expect(res.headers['content-type']).toMatch(/^text\/javascript/);
      expect(Number(res.headers['content-length']), accept).toBe(res.rawPayload.length);
      expect(decode(expected, res.rawPayload).toString(), accept).toBe(BIG_JS);
      if (expected) expect(res.rawPayload.length, accept).toBeLessThan(BIG_JS.length / 4);
      // The headers every page response carries stay on the compressed ones.
      expect(res.headers['content-security-policy'], accept).toContain("script-src 'self'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cache-control']).toContain('immutable');
      etags.add(`${expected}:${String(res.headers.etag)}`);
    }
    // One strong ETag per representation: br, gzip and identity each have their own.
    const byCoding = new Map([...etags].map((e) => [e.split(':')[0], e.slice(e.indexOf(':') + 1)]));
    expect(new Set(byCoding.values()).size).toBe(3);
    for (const etag of byCoding.values()) expect(etag).toMatch(/^"[^"]+"$/);
  });

  it('writes the compressed files next to the built ones, once', async () => {
    expect(brotliDecompressSync(await readFile(join(dir, 'assets/chunk-abc.js.br'))).toString()).toBe(BIG_JS);
    expect(gunzipSync(await readFile(join(dir, 'assets/chunk-abc.js.gz'))).toString()).toBe(BIG_JS);
    // The .br file itself is not a page of its own next to the original.
    const res = await get('/assets/chunk-abc.js', 'br');
    expect(res.rawPayload).toEqual(await readFile(join(dir, 'assets/chunk-abc.js.br')));
  });

  it('answers 304 to the ETag of the representation the client holds', async () => {
    for (const accept of ['br', 'gzip', 'identity']) {
      const first = await get('/assets/chunk-abc.js', accept);
      const again = await get('/assets/chunk-abc.js', accept, { 'if-none-match': String(first.headers.etag) });
      expect(again.statusCode, accept).toBe(304);
      expect(again.rawPayload.length).toBe(0);
      expect(again.headers.vary).toBe('Accept-Encoding');
    }
  });

  it('never compresses already-compressed types, nor files compression would not shrink', async () => {
    for (const [url, body] of [
      ['/assets/logo-abc.png', PNG],
      ['/assets/font-abc.woff2', WOFF2],
      ['/assets/app.js', Buffer.from('console.log(1)')],
      ['/assets/noise-abc.js', await readFile(join(dir, 'assets/noise-abc.js'))],
    ] as const) {
      const res = await get(url, 'gzip, deflate, br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBeUndefined();
      expect(res.rawPayload, url).toEqual(body);
    }
  });

  it('sends the dashboard page (every SPA route) compressed as well, with its CSP', async () => {
    for (const url of ['/', '/fleets', '/index.html']) {
      const res = await get(url, 'gzip', { accept: 'text/html' });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBe('gzip');
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(gunzipSync(res.rawPayload).toString()).toBe(INDEX_HTML);
      expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});
