import { ROLES } from '@flotilla/model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/harness.js';
import { compileGet } from './query.js';
import { paramsFor } from './sql.js';
import { parseUrl } from './url.js';

/**
 * Issue 21 (found by the fuzzer): a top-level to-one `$expand` builds each distinct target
 * once (query.ts `dedupedCollection`). With `$skip`, PostgreSQL re-ran the per-target expand
 * once per page row: 788 × 133 = 105,217 permission-checked release lookups, 4.6 s, for an
 * anonymous `release_tag?$expand=release&$skip=50` over the public host OS catalogue.
 */
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('a top-level to-one $expand with $skip', () => {
  const url = '/release_tag?$select=created_at,release&$expand=release&$skip=50';

  it('looks each distinct target up once, not once per row (the plan PostgreSQL runs)', async () => {
    const stmt = compileGet(parseUrl(url), ROLES.anonymous);
    const { rows } = await t.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ${stmt.sql}`, [...paramsFor(stmt, null)]);
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    const distinct = (await t.db.query<{ n: number }>('SELECT count(DISTINCT release)::int AS n FROM release_tag')).rows[0]!.n;
    const lookups = [...plan.matchAll(/Index Scan using release_pkey on release \w+ \(actual rows=[\d.]+ loops=(\d+)\)/g)].map((m) => Number(m[1]));
    expect(lookups.length, plan).toBeGreaterThan(0);
    expect(distinct).toBeGreaterThan(50);
    for (const loops of lookups) expect(loops, plan).toBeLessThanOrEqual(distinct);
  });

  it('answers every row with its own release', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/v7${url}` });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ d: { release: { id: number; commit: string }[] }[] }>().d;
    const total = (await t.app.inject({ method: 'GET', url: '/v7/release_tag/$count' })).json<{ d: number }>().d;
    expect(body).toHaveLength(total - 50);
    const commits = new Map((await t.db.query<{ id: number; commit: string }>('SELECT id, commit FROM release')).rows.map((r) => [r.id, r.commit]));
    for (const row of body) {
      expect(row.release).toHaveLength(1);
      expect(row.release[0]!.commit).toBe(commits.get(row.release[0]!.id));
    }
  });
});
