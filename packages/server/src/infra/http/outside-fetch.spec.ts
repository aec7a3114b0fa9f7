import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadGatewayError, GatewayTimeoutError, NotFoundError } from '../errors.js';
import { fetchOutsideText, type OutsideFetchOptions } from './outside-fetch.js';

// A real local host (and a second one, another origin) answering by path.
function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; base: string }> {
  const server = createServer(handler);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

let host: { server: Server; base: string };
let other: { server: Server; base: string };
let closedBase: string;

beforeAll(async () => {
  other = await listen((_req, res) => res.end('elsewhere'));
  host = await listen((req, res) => {
    const url = req.url ?? '/';
    if (url === '/file') return res.end(`file for ${req.headers.accept}`);
    if (url.startsWith('/hop/')) {
      const n = Number(url.slice('/hop/'.length));
      res.writeHead(302, { location: n > 0 ? `/hop/${n - 1}` : '/file' });
      return res.end();
    }
    if (url === '/away') {
      res.writeHead(302, { location: `${other.base}/file` });
      return res.end();
    }
    if (url === '/big-declared') {
      res.writeHead(200, { 'content-length': '11' });
      return res.end('x'.repeat(11));
    }
    if (url === '/big-chunked') {
      res.write('x'.repeat(6));
      return res.end('x'.repeat(5));
    }
    if (url === '/fits') return res.end('x'.repeat(10));
    if (url === '/slow') return void setTimeout(() => res.end('late'), 2000);
    if (url === '/fail') {
      res.writeHead(500);
      return res.end();
    }
    res.writeHead(404);
    res.end();
  });
  const closed = await listen(() => undefined);
  closedBase = closed.base;
  await new Promise((r) => closed.server.close(r));
});

afterAll(async () => {
  host.server.closeAllConnections();
  await Promise.all([new Promise((r) => host.server.close(r)), new Promise((r) => other.server.close(r))]);
});

const opts = (more: Partial<OutsideFetchOptions> = {}): OutsideFetchOptions => ({
  accept: 'text/plain',
  timeoutMs: 1000,
  maxBytes: 10,
  failed: 'Failed retrieving it',
  notFound: 'Nothing there',
  ...more,
});

describe('fetchOutsideText', () => {
  it('answers the text, sending the accept header', async () => {
    expect(await fetchOutsideText(`${host.base}/file`, opts({ maxBytes: 100 }))).toBe('file for text/plain');
  });

  it('follows redirects within the origin up to maxRedirects, none by default', async () => {
    expect(await fetchOutsideText(`${host.base}/hop/2`, opts({ maxBytes: 100, maxRedirects: 3 }))).toBe('file for text/plain');
    await expect(fetchOutsideText(`${host.base}/hop/3`, opts({ maxBytes: 100, maxRedirects: 3 }))).rejects.toThrow(
      new BadGatewayError('Failed retrieving it (HTTP 302)'),
    );
    await expect(fetchOutsideText(`${host.base}/hop/0`, opts({ maxBytes: 100 }))).rejects.toThrow(new BadGatewayError('Failed retrieving it (HTTP 302)'));
  });

  it('does not follow a redirect to another origin', async () => {
    const err = await fetchOutsideText(`${host.base}/away`, opts({ maxBytes: 100, maxRedirects: 3 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadGatewayError);
    expect((err as BadGatewayError).message).toBe('Failed retrieving it (HTTP 302)');
  });

  it('answers null for an answer larger than maxBytes, declared or not', async () => {
    expect(await fetchOutsideText(`${host.base}/fits`, opts())).toBe('x'.repeat(10));
    expect(await fetchOutsideText(`${host.base}/big-declared`, opts())).toBeNull();
    expect(await fetchOutsideText(`${host.base}/big-chunked`, opts())).toBeNull();
  });

  it('turns failures into the caller-facing errors', async () => {
    const notFound = await fetchOutsideText(`${host.base}/missing`, opts()).catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(NotFoundError);
    expect((notFound as NotFoundError).message).toBe('Nothing there');
    const failed = await fetchOutsideText(`${host.base}/fail`, opts()).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(BadGatewayError);
    expect((failed as BadGatewayError).message).toBe('Failed retrieving it (HTTP 500)');
    const slow = await fetchOutsideText(`${host.base}/slow`, opts({ timeoutMs: 200 })).catch((e: unknown) => e);
    expect(slow).toBeInstanceOf(GatewayTimeoutError);
    expect((slow as GatewayTimeoutError).statusCode).toBe(504);
    expect((slow as GatewayTimeoutError).message).toBe('Failed retrieving it: no answer within 0.2 s');
    const down = await fetchOutsideText(`${closedBase}/file`, opts()).catch((e: unknown) => e);
    expect(down).toBeInstanceOf(BadGatewayError);
    expect((down as BadGatewayError).message).toBe('Failed retrieving it: the code host is unreachable');
  });
});
