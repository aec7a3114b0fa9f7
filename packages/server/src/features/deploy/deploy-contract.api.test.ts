import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { bearer, createTestDb, signUp, TEST_JWT_SECRET, type SignedUpUser } from '../../../test/harness.js';
import { freePort } from '../../../test/support/net.js';

/*
 * GET /deploy/v1/contract (spec 2 §2 /deploy, §5, §8, §9): the server reads a repository's
 * balena.yml from the code host for the dashboard. An in-process HTTP server stands in for
 * the raw-file host; the code host is http://code.test (never contacted).
 */
const CODE_HOST = 'http://code.test';
const TIMEOUT_MS = 300;

let rawHost: Server;
let rawUrl: string;
let app: FastifyInstance;
let drop: () => Promise<void>;
let user: SignedUpUser;
const requested: string[] = [];
const pending = new Set<() => void>();

const FILES: Record<string, { status: number; body: string; location?: string }> = {
  '/acme/sample/HEAD/balena.yml': { status: 200, body: 'name: Sample App\ntype: sw.application\ndata:\n  defaultDeviceType: raspberrypi3\n' },
  '/acme/broken/HEAD/balena.yml': { status: 200, body: 'name: [unclosed\n' },
  '/acme/nameless/HEAD/balena.yml': { status: 200, body: 'type: sw.application\n' },
  '/acme/moved/HEAD/balena.yml': { status: 301, body: '', location: '/acme/sample/HEAD/balena.yml' },
  '/acme/escape/HEAD/balena.yml': { status: 302, body: '', location: 'http://169.254.169.254/latest/meta-data' },
  '/acme/flaky/HEAD/balena.yml': { status: 500, body: 'oops' },
};

async function contract(repoUrl: string, token: string | null = user.token, host = app) {
  return host.inject({
    method: 'GET',
    url: `/deploy/v1/contract?repoUrl=${encodeURIComponent(repoUrl)}`,
    headers: token ? bearer(token) : {},
  });
}

beforeAll(async () => {
  rawHost = createServer((req, res) => {
    requested.push(req.url ?? '');
    if (req.url === '/acme/slow/HEAD/balena.yml') {
      // Never answers on its own; released at the end so the server can close.
      pending.add(() => res.end());
      return;
    }
    const file = FILES[req.url ?? ''];
    if (!file) {
      res.writeHead(404).end('404: Not Found');
      return;
    }
    res.writeHead(file.status, file.location ? { location: file.location } : { 'content-type': 'text/plain' }).end(file.body);
  });
  await new Promise<void>((resolve) => rawHost.listen(0, '127.0.0.1', resolve));
  rawUrl = `http://127.0.0.1:${(rawHost.address() as { port: number }).port}`;
  const testDb = await createTestDb();
  drop = testDb.drop;
  app = await buildApp({ db: testDb.db, jwtSecret: TEST_JWT_SECRET, codeHost: { codeHostUrl: CODE_HOST, rawUrl, timeoutMs: TIMEOUT_MS } });
  user = await signUp(app);
});

afterAll(async () => {
  for (const release of pending) release();
  await app.close();
  await drop();
  await new Promise<void>((resolve) => rawHost.close(() => resolve()));
});

describe('GET /deploy/v1/contract', () => {
  it('answers the name, type and default device type of a valid balena.yml from the default branch', async () => {
    const res = await contract(`${CODE_HOST}/acme/sample`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ name: 'Sample App', type: 'sw.application', defaultDeviceType: 'raspberrypi3' });
    expect(requested).toContain('/acme/sample/HEAD/balena.yml');
  });

  it("answers 404 'Repository not found' when the code host says 404", async () => {
    const res = await contract(`${CODE_HOST}/acme/missing.git`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toBe('Repository not found');
  });

  it('answers 502 with the invalid-contract message for unparsable YAML and for a contract without a name', async () => {
    for (const repo of ['broken', 'nameless']) {
      const res = await contract(`${CODE_HOST}/acme/${repo}`);
      expect(res.statusCode).toBe(502);
      expect(res.json()).toBe('The balena.yml contract in the repository is invalid');
    }
  });

  it('follows a redirect within the raw-file host but never to another host', async () => {
    expect((await contract(`${CODE_HOST}/acme/moved`)).json()).toMatchObject({ name: 'Sample App' });
    const escaped = await contract(`${CODE_HOST}/acme/escape`);
    expect(escaped.statusCode).toBe(502);
    expect(escaped.json()).toBe('Failed retrieving data from code.test (HTTP 302)');
  });

  it('answers 502 when the code host fails', async () => {
    const res = await contract(`${CODE_HOST}/acme/flaky`);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toBe('Failed retrieving data from code.test (HTTP 500)');
  });

  it('answers 504 when the code host does not answer in time', async () => {
    const res = await contract(`${CODE_HOST}/acme/slow`);
    expect(res.statusCode).toBe(504);
    expect(res.json()).toBe('Failed retrieving data from code.test: no answer within 0.3 s');
  });

  it('answers 502 when the code host is unreachable', async () => {
    const db = await createTestDb();
    const closedPort = await freePort();
    const offline = await buildApp({
      db: db.db,
      jwtSecret: TEST_JWT_SECRET,
      codeHost: { codeHostUrl: CODE_HOST, rawUrl: `http://127.0.0.1:${closedPort}`, timeoutMs: 5000 },
    });
    try {
      const someone = await signUp(offline);
      const res = await contract(`${CODE_HOST}/acme/sample`, someone.token, offline);
      expect(res.statusCode).toBe(502);
      expect(res.json()).toBe('Failed retrieving data from code.test: the code host is unreachable');
    } finally {
      await offline.close();
      await db.drop();
    }
  });

  it('refuses repository URLs that are not on the configured code host, without fetching anything', async () => {
    const before = requested.length;
    for (const repoUrl of [`${rawUrl}/acme/sample`, 'https://github.com/acme/sample', 'file:///etc/passwd', `${CODE_HOST}/acme/sample/tree/main`]) {
      const res = await contract(repoUrl);
      expect(res.statusCode, repoUrl).toBe(400);
      expect(res.json()).toBe(`repoUrl must be a repository URL on ${CODE_HOST}`);
    }
    expect(requested.length).toBe(before);
  });

  it('needs a signed-in user', async () => {
    const res = await contract(`${CODE_HOST}/acme/sample`, null);
    expect(res.statusCode).toBe(401);
  });
});
