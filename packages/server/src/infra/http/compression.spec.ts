import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { COMPRESSION_THRESHOLD_BYTES, etagMatches, installCompression, negotiateEncoding } from './compression.js';

describe('negotiateEncoding', () => {
  const both = ['br', 'gzip'] as const;
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['GZIP', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.4', 'br'],
    ['br;q=0, gzip;q=0.001', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['*', 'br'],
    ['*;q=0.5, gzip', 'gzip'],
    ['*;q=0', 'identity'],
    ['identity', 'identity'],
    ['deflate, zstd', 'identity'],
    ['gzip;q=0.5, identity;q=0.9', 'identity'],
    ['gzip;q=0.5, identity;q=0.5', 'gzip'],
    ['br;q=bogus, gzip', 'gzip'],
  ])('%s → %s', (header, expected) => {
    expect(negotiateEncoding(header, both)).toBe(expected);
  });
  it('offers only what exists', () => {
    expect(negotiateEncoding('br', ['gzip'])).toBe('identity');
    expect(negotiateEncoding('br, gzip;q=0.1', ['gzip'])).toBe('gzip');
    expect(negotiateEncoding('br', [])).toBe('identity');
  });
});

describe('etagMatches', () => {
  it('compares weakly, in lists, and with *', () => {
    expect(etagMatches('"a"', '"a"')).toBe(true);
    expect(etagMatches('W/"a"', '"a"')).toBe(true);
    expect(etagMatches('"a"', 'W/"a"')).toBe(true);
    expect(etagMatches('"b", W/"a"', '"a"')).toBe(true);
    expect(etagMatches('*', '"a"')).toBe(true);
    expect(etagMatches('"b"', '"a"')).toBe(false);
    expect(etagMatches(undefined, '"a"')).toBe(false);
  });
});

describe('installCompression', () => {
  const big = JSON.stringify({ d: Array.from({ length: 200 }, (_, i) => ({ id: i, app_name: `fleet-${i}` })) });
  async function app() {
    const a = Fastify();
    installCompression(a);
    a.get('/big', async (_req, reply) => reply.type('application/json').send(big));
    a.get('/small', async () => ({ ok: true }));
    a.get('/stream', async (_req, reply) => reply.type('text/plain').send(Readable.from([big])));
    a.get('/no-transform', async (_req, reply) => reply.header('cache-control', 'no-transform').type('application/json').send(big));
    a.get('/own-coding', { config: { compress: false } }, async (_req, reply) => reply.type('application/json').send(big));
    a.get('/binary', async (_req, reply) => reply.type('application/octet-stream').send(Buffer.from(big)));
    a.get('/etag', async (request, reply) => {
      reply.header('etag', '"v1"');
      if (etagMatches(request.headers['if-none-match'], '"v1"')) return reply.code(304).send();
      return reply.type('application/json').send(big);
    });
    return a;
  }
  const gz = { 'accept-encoding': 'gzip' };

  it('compresses JSON above the threshold and not below it', async () => {
    const a = await app();
    expect(big.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
    const res = await a.inject({ url: '/big', headers: gz });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(gunzipSync(res.rawPayload).toString()).toBe(big);
    const small = await a.inject({ url: '/small', headers: gz });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ ok: true });
  });

  it('leaves streams, binary bodies, no-transform responses and routes that opt out alone', async () => {
    const a = await app();
    for (const url of ['/stream', '/no-transform', '/binary', '/own-coding']) {
      const res = await a.inject({ url, headers: gz });
      expect(res.headers['content-encoding'], url).toBeUndefined();
      expect(res.body, url).toBe(big);
    }
  });

  it('makes a strong ETag weak when it compresses, and the weak one still gets its 304', async () => {
    const a = await app();
    const res = await a.inject({ url: '/etag', headers: gz });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.etag).toBe('W/"v1"');
    const again = await a.inject({ url: '/etag', headers: { ...gz, 'if-none-match': 'W/"v1"' } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers['content-encoding']).toBeUndefined();
    const plain = await a.inject({ url: '/etag' });
    expect(plain.headers.etag).toBe('"v1"');
    expect(plain.body).toBe(big);
  });
});
