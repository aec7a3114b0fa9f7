import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.js';
import { createTestDb, TEST_JWT_SECRET } from '../../../test/harness.js';
import type { PoolDb } from '../../infra/db/db.js';

// Issue 19 (header, changelog, version check, status page, announcement): what the server
// gives the dashboard: /config/dashboard's links and announcement, the build's CHANGELOG.md and
// buildtime.txt, and /config/status over a Statuspage-compatible feed (a stand-in on a local port).

let db: PoolDb;
let drop: () => Promise<void>;
let dir: string;
const apps: FastifyInstance[] = [];

/** The stand-in feed: each request is answered by `answer`; `hits` counts them. */
let answer: (res: ServerResponse) => void = (res) => res.end('{}');
let hits = 0;
let feed: Server;
let feedUrl: string;

beforeAll(async () => {
  ({ db, drop } = await createTestDb());
  dir = await mkdtemp(join(tmpdir(), 'flotilla-news-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>Flotilla</title>');
  await writeFile(join(dir, 'CHANGELOG.md'), '# Changelog\n\n## [1.2.0] - 2026-11-27\n\n- <b>bold</b> claim\n');
  await writeFile(join(dir, 'buildtime.txt'), '2026-11-27T10:00:00.000Z\n');
  feed = createServer((_req, res) => {
    hits++;
    answer(res);
  });
  await new Promise<void>((r) => feed.listen(0, '127.0.0.1', r));
  feedUrl = `http://127.0.0.1:${(feed.address() as AddressInfo).port}/api/v2/summary.json`;
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await new Promise((r) => feed.close(r));
  await drop();
  await rm(dir, { recursive: true, force: true });
});

async function appWith(options: Partial<Parameters<typeof buildApp>[0]> = {}): Promise<FastifyInstance> {
  const app = await buildApp({ db, jwtSecret: TEST_JWT_SECRET, ...options });
  apps.push(app);
  return app;
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

describe('/config/dashboard', () => {
  it('names the configured help links and hides the unset ones (null)', async () => {
    const app = await appWith({
      docsUrl: 'https://docs.example.com/',
      links: { gettingStartedUrl: 'https://example.com/start', forumsUrl: 'https://forums.example.com/', statusPageUrl: 'https://status.example.com/' },
    });
    const body = (await app.inject({ method: 'GET', url: '/config/dashboard' })).json();
    expect(body.docsUrl).toBe('https://docs.example.com/');
    expect(body.links).toEqual({
      gettingStartedUrl: 'https://example.com/start',
      featureRequestsUrl: null,
      forumsUrl: 'https://forums.example.com/',
      helpCenterUrl: null,
      statusPageUrl: 'https://status.example.com/',
    });
    expect(body.announcement).toBeNull();
    const bare = (await (await appWith()).inject({ method: 'GET', url: '/config/dashboard' })).json();
    expect(Object.values(bare.links)).toEqual([null, null, null, null, null]);
  });

  it('carries the announcement with its window as ISO instants', async () => {
    const app = await appWith({ announcement: { text: 'Maintenance on Sunday', from: '2026-11-21', until: '2026-11-29T12:00:00+01:00', url: 'https://example.com/m' } });
    expect((await app.inject({ method: 'GET', url: '/config/dashboard' })).json().announcement).toEqual({
      text: 'Maintenance on Sunday',
      from: '2026-11-21T00:00:00.000Z',
      until: '2026-11-29T11:00:00.000Z',
      url: 'https://example.com/m',
    });
  });
});

describe('the build files', () => {
  it('serves CHANGELOG.md as markdown text, revalidated, under the page CSP', async () => {
    const app = await appWith({ webDistDir: dir });
    const res = await app.inject({ method: 'GET', url: '/CHANGELOG.md' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(res.body).toContain('## [1.2.0] - 2026-11-27');
    const again = await app.inject({ method: 'GET', url: '/CHANGELOG.md', headers: { 'if-none-match': String(res.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('serves buildtime.txt never cached, read at each request (a new build is seen at once)', async () => {
    const app = await appWith({ webDistDir: dir });
    const first = await app.inject({ method: 'GET', url: '/buildtime.txt' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.body).toBe('2026-11-27T10:00:00.000Z');
    await writeFile(join(dir, 'buildtime.txt'), '2026-11-27T11:30:00.000Z\n');
    expect((await app.inject({ method: 'GET', url: '/buildtime.txt' })).body).toBe('2026-11-27T11:30:00.000Z');
    await rm(join(dir, 'buildtime.txt'));
    expect((await app.inject({ method: 'GET', url: '/buildtime.txt' })).statusCode).toBe(404);
  });
});

describe('/config/status', () => {
  it('says the status page is not configured when no feed is set', async () => {
    const res = await (await appWith()).inject({ method: 'GET', url: '/config/status' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ configured: false });
  });

  it('reduces an all-clear summary to its indicator and description, and reads the feed once per 30 s', async () => {
    let now = Date.parse('2026-11-27T12:00:00Z');
    const app = await appWith({ statusFeed: { url: feedUrl }, clock: () => now });
    answer = (res) =>
      json(res, 200, {
        page: { id: 'x', name: 'Example', url: 'https://status.example.com' },
        status: { indicator: 'none', description: 'All Systems Operational' },
        components: [{ id: 'c', name: 'API', status: 'operational' }],
        incidents: [],
        scheduled_maintenances: [],
      });
    hits = 0;
    const res = await app.inject({ method: 'GET', url: '/config/status' });
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.json()).toEqual({ configured: true, indicator: 'none', description: 'All Systems Operational', incidents: [] });
    // Three callers within the period share one read; after it, the feed is asked again.
    await Promise.all([1, 2, 3].map(() => app.inject({ method: 'GET', url: '/config/status' })));
    expect(hits).toBe(1);
    now += 30_000;
    await app.inject({ method: 'GET', url: '/config/status' });
    expect(hits).toBe(2);
  });

  it('names open incidents (resolved ones dropped, text bounded) with the reported indicator', async () => {
    const app = await appWith({ statusFeed: { url: feedUrl } });
    answer = (res) =>
      json(res, 200, {
        status: { indicator: 'major', description: 'Partial System Outage' },
        incidents: [
          { id: 'a', name: 'Device logs delayed', status: 'investigating', impact: 'major', shortlink: 'https://stspg.io/a', incident_updates: [{ body: 'x' }] },
          { id: 'b', name: 'Old trouble', status: 'resolved', impact: 'minor' },
          { id: 'c', name: `<script>alert(1)</script>${'x'.repeat(500)}`, status: 'identified', impact: 'critical' },
          'not an incident',
        ],
      });
    const body = (await app.inject({ method: 'GET', url: '/config/status' })).json();
    expect(body.indicator).toBe('major');
    expect(body.description).toBe('Partial System Outage');
    expect(body.incidents).toHaveLength(2);
    expect(body.incidents[0]).toEqual({ name: 'Device logs delayed', status: 'investigating', impact: 'major' });
    // Passed on as text (the dashboard renders it as text), cut to 200 characters.
    expect(body.incidents[1].name).toHaveLength(200);
    expect(body.incidents[1].name.startsWith('<script>')).toBe(true);
  });

  it('answers indicator unknown when the feed is unreachable, slow, failing, oversized or not a summary', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/summary.json`;
    await new Promise((r) => closed.close(r));
    const unknown = { configured: true, indicator: 'unknown', description: '', incidents: [] };

    const unreachable = await appWith({ statusFeed: { url: closedUrl } });
    expect((await unreachable.inject({ method: 'GET', url: '/config/status' })).json()).toEqual(unknown);

    for (const [label, reply] of [
      ['slow', (res: ServerResponse) => setTimeout(() => json(res, 200, { status: { indicator: 'none', description: 'late' } }), 1_500)],
      ['HTTP 500', (res: ServerResponse) => json(res, 500, { error: 'down' })],
      ['not JSON', (res: ServerResponse) => res.end('<html>maintenance</html>')],
      ['no status', (res: ServerResponse) => json(res, 200, { page: {} })],
      ['unknown indicator', (res: ServerResponse) => json(res, 200, { status: { indicator: 'apocalyptic', description: 'x' } })],
      [
        'oversized, without a length',
        (res: ServerResponse) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write(`{"status":{"indicator":"none","description":"${'x'.repeat(8_000)}`);
          res.end('"}}');
        },
      ],
      ['oversized, declared', (res: ServerResponse) => json(res, 200, { status: { indicator: 'none', description: 'y'.repeat(8_000) } })],
    ] as const) {
      const app = await appWith({ statusFeed: { url: feedUrl, timeoutMs: 300, maxBytes: 4_096 } });
      answer = reply;
      const res = await app.inject({ method: 'GET', url: '/config/status' });
      expect(res.statusCode, label).toBe(200);
      expect(res.json(), label).toMatchObject({ configured: true, indicator: 'unknown', incidents: [] });
    }
  });
});
