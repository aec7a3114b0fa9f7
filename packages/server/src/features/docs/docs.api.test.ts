import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.js';
import { createTestDb, TEST_JWT_SECRET } from '../../../test/harness.js';

/*
 * Issue 11 item 10: the dashboard's documentation links point at Flotilla's own guides,
 * shipped as markdown under docs/guide and served at /docs/, or at FLOTILLA_DOCS_URL; and the
 * dashboard learns that this install has no billing (no seat prices).
 */
let plain: FastifyInstance;
let custom: FastifyInstance;
let drop: () => Promise<void>;

beforeAll(async () => {
  const t = await createTestDb();
  drop = t.drop;
  plain = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET });
  custom = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET, docsUrl: 'https://docs.example.org/flotilla/' });
});
afterAll(async () => {
  await custom.close();
  await plain.close();
  await drop();
});

describe('Flotilla documentation', () => {
  it('serves the guides as HTML at /docs/ and /docs/{page}, without scripts, and 404s unknown pages', async () => {
    const index = await plain.inject({ method: 'GET', url: '/docs/' });
    expect(index.statusCode).toBe(200);
    expect(index.headers['content-type']).toMatch(/^text\/html/);
    expect(index.body).toContain('<h1>Flotilla documentation</h1>');
    expect(index.body).toContain('<a href="fleets">Fleets</a>');
    expect(index.headers['content-security-policy']).toMatch(/^default-src 'none'/);
    for (const name of ['fleets', 'apps', 'blocks', 'devices', 'support']) {
      const page = await plain.inject({ method: 'GET', url: `/docs/${name}` });
      expect(page.statusCode, name).toBe(200);
      expect(page.body).toMatch(/<h1>[^<]+<\/h1>/);
      expect(page.body).not.toContain('balena.io');
    }
    expect((await plain.inject({ method: 'GET', url: '/docs' })).headers.location).toBe('/docs/');
    expect((await plain.inject({ method: 'GET', url: '/docs/no-such-guide' })).statusCode).toBe(404);
    expect((await plain.inject({ method: 'GET', url: '/docs/..%2Fdecisions' })).statusCode).toBe(404);
  });

  it('tells the dashboard where the docs are (default /docs/, or FLOTILLA_DOCS_URL) and that billing is off', async () => {
    const own = (await plain.inject({ method: 'GET', url: '/config/dashboard' })).json();
    expect(own).toMatchObject({ docsUrl: '/docs/', billing: false });
    const other = (await custom.inject({ method: 'GET', url: '/config/dashboard' })).json();
    expect(other).toMatchObject({ docsUrl: 'https://docs.example.org/flotilla/', billing: false });
  });
});
