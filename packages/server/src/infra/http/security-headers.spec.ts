import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { HSTS_MAX_AGE_SECONDS, installSecurityHeaders } from './security-headers.js';

/** The headers installSecurityHeaders answers with, and nothing more of helmet's defaults. */
async function headersOf(https: boolean, url = '/json') {
  const app = Fastify();
  await installSecurityHeaders(app, { https });
  app.get('/json', async () => ({ ok: true }));
  app.get('/token', { config: { noStore: true } }, async () => 'a-token');
  app.get('/page', async (_request, reply) => reply.header('Content-Security-Policy', "default-src 'none'").type('text/html').send('<p>hi</p>'));
  const res = await app.inject({ method: 'GET', url });
  await app.close();
  return res.headers;
}

const HELMET_DEFAULTS_LEFT_OFF = [
  'content-security-policy',
  'cross-origin-embedder-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

describe('installSecurityHeaders', () => {
  it('sends nosniff, DENY and same-origin, no HSTS over http, and none of the other helmet defaults', async () => {
    const headers = await headersOf(false);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['referrer-policy']).toBe('same-origin');
    expect(headers['strict-transport-security']).toBeUndefined();
    expect(headers['cache-control']).toBeUndefined();
    for (const name of HELMET_DEFAULTS_LEFT_OFF) expect(headers[name], name).toBeUndefined();
  });

  it('sends HSTS for a year with subdomains when the public URL is https', async () => {
    expect((await headersOf(true))['strict-transport-security']).toBe(`max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains`);
  });

  it('adds no-store to routes that carry a credential, and leaves a page its own policy', async () => {
    const token = await headersOf(false, '/token');
    expect(token['cache-control']).toBe('no-store');
    expect(token.pragma).toBe('no-cache');
    const page = await headersOf(false, '/page');
    expect(page['content-security-policy']).toBe("default-src 'none'");
    expect(page['x-frame-options']).toBe('DENY');
  });
});
