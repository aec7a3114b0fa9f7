import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, removeOsCatalogue, insertFleet, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';

// Issue 11 (1b, 1d): every data-API response is bounded. Each level (the collection and each
// $expand) is a page of at most 1,000 rows unless $top asks for up to 10,000; the JSON is
// capped at 32 MB (a 400 saying how to ask for less); $expand and $filter lambdas nest a
// bounded number of levels.

let t: TestApp;
let alice: SignedUpUser;
let fleetId: number;
const TAGS = 1_100;

async function get(url: string) {
  const res = await t.app.inject({ method: 'GET', url, headers: bearer(alice.token) });
  return { status: res.statusCode, body: res.json() as unknown, bytes: res.rawPayload.length };
}

beforeAll(async () => {
  t = await buildTestApp();
  // This file counts every fleet tag a caller reads (the public OS catalogue has some).
  await removeOsCatalogue(t.db);
  alice = await signUp(t.app);
  fleetId = await insertFleet(t.db, alice, 'many-tags');
  // The issue's reproduction, scaled: a user's own fleet with many tags (each value 100 characters).
  await t.db.query(
    `INSERT INTO application_tag (application, tag_key, value)
     SELECT $1, 'key-' || lpad(i::text, 5, '0'), repeat('v', 100) FROM generate_series(1, $2::integer) AS i`,
    [fleetId, TAGS],
  );
});
afterAll(async () => {
  await t.close();
});

describe('page sizes', () => {
  it('a collection without $top is a page of 1,000 rows; $top chooses up to 10,000; more is a 400', async () => {
    expect(((await get('/v7/application_tag?$select=id')).body as { d: unknown[] }).d).toHaveLength(1_000);
    expect(((await get(`/v7/application_tag?$select=id&$top=${TAGS}`)).body as { d: unknown[] }).d).toHaveLength(TAGS);
    expect(((await get('/v7/application_tag?$select=id&$skip=1000')).body as { d: unknown[] }).d).toHaveLength(TAGS - 1_000);
    expect(await get('/v7/application_tag?$select=id&$top=10001')).toMatchObject({
      status: 400,
      body: '$top may be at most 10000; page through larger collections with $skip',
    });
    // Counting is not paged.
    expect((await get('/v7/application_tag/$count')).body).toEqual({ d: TAGS });
  });

  it('each $expand level is paged the same way', async () => {
    const page = await get(`/v7/application(${fleetId})?$select=id&$expand=application_tag($select=id)`);
    expect((page.body as { d: { application_tag: unknown[] }[] }).d[0]!.application_tag).toHaveLength(1_000);
    const more = await get(`/v7/application(${fleetId})?$select=id&$expand=application_tag($select=id;$top=${TAGS})`);
    expect((more.body as { d: { application_tag: unknown[] }[] }).d[0]!.application_tag).toHaveLength(TAGS);
    expect(await get(`/v7/application(${fleetId})?$expand=application_tag($top=20000)`)).toMatchObject({ status: 400 });
    const counted = await get(`/v7/application(${fleetId})?$select=id&$expand=application_tag/$count`);
    expect((counted.body as { d: { application_tag: number }[] }).d[0]!.application_tag).toBe(TAGS);
  });
});

describe('response size', () => {
  it("the issue's nested expand answers a 400 with a message instead of hundreds of megabytes", async () => {
    for (const url of [
      '/v7/application_tag?$expand=application($expand=application_tag)',
      '/v7/application_tag?$top=400&$expand=application($expand=application_tag)',
    ]) {
      const res = await get(url);
      expect(res.status, url).toBe(400);
      expect(res.body, url).toMatch(/^The response would be \d+ MB, more than the limit of 32 MB: ask for fewer rows/);
      expect(res.bytes).toBeLessThan(1_000);
    }
    // Under the cap it is served as before.
    const small = await get('/v7/application_tag?$top=20&$select=id&$expand=application($select=id;$expand=application_tag($select=id))');
    expect(small.status).toBe(200);
  });
});

describe('nesting depth', () => {
  const expand = (levels: number): string => {
    const navs = ['organization', 'application'];
    let inner = '';
    for (let i = levels - 1; i >= 0; i--) inner = `${navs[i % 2]}${inner ? `($select=id;$expand=${inner})` : '($select=id)'}`;
    return `/v7/application?$select=id&$expand=${inner}`;
  };

  it('$expand nests at most 5 levels', async () => {
    expect((await get(expand(5))).status).toBe(200);
    expect(await get(expand(6))).toMatchObject({ status: 400, body: '$expand may be nested at most 5 levels deep' });
  });

  it('lambdas in $filter nest at most 3 levels, $count filters included, also inside $expand', async () => {
    // Three levels are served (over a fleet without devices, so the check stays quick).
    const three = "application/any(a:a/owns__device/any(d:d/device_tag/any(t:t/tag_key eq 'x')))";
    expect((await get(`/v7/organization?$select=id&$filter=${three}`)).status).toBe(200);
    const four = "application/any(a:a/owns__device/any(d:d/device_tag/any(t:t/device/device_tag/any(u:u/tag_key eq 'x'))))";
    const message = 'Lambdas (any, all, $count with $filter) may be nested at most 3 levels deep in $filter';
    for (const url of [
      `/v7/organization?$select=id&$filter=${four}`,
      "/v7/application?$select=id&$filter=application_tag/any(a:a/application/application_tag/any(b:b/application/application_tag/any(c:c/application/application_tag/any(d:d/tag_key eq 'x'))))",
      "/v7/application?$select=id&$filter=application_tag/all(a:a/application/application_tag/any(b:b/application/application_tag/$count($filter=application/application_tag/any(d:d/tag_key eq 'x')) gt 0))",
      `/v7/user?$select=id&$expand=organization_membership($expand=is_member_of__organization($filter=${four}))`,
      `/v7/application?$select=id&$orderby=application_tag/$count($filter=application/application_tag/any(b:b/application/application_tag/any(c:c/application/application_tag/any(d:d/id eq 1)))) desc`,
    ]) {
      expect(await get(url), url).toMatchObject({ status: 400, body: message });
    }
  });
});
