import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, signUp, type SignedUpUser, type TestApp, insertFleet as insertFleetRow } from '../../../test/harness.js';

// GET on the data API against seeded reference data (device types, aliases, CPU
// architectures) and fleets inserted directly, as a signed-in user.

let t: TestApp;
let alice: SignedUpUser;
let rpi3: number;
let apps: Record<string, number> = {};

type Row = Record<string, unknown>;

async function get(url: string, token = alice.token): Promise<Row[]> {
  const res = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  return res.json<{ d: Row[] }>().d;
}
const ids = (rows: Row[]) => rows.map((r) => r.id as number);

const insertFleet = (owner: SignedUpUser, name: string, extra: Row = {}) => insertFleetRow(t.db, owner, name, extra);

beforeAll(async () => {
  t = await buildTestApp();
  alice = await signUp(t.app);
  rpi3 = (await t.db.query<{ id: number }>(`SELECT id FROM device_type WHERE slug = 'raspberrypi3'`)).rows[0]!.id;
  apps = {
    alpha: await insertFleet(alice, 'alpha', { created_at: '2025-03-04T05:06:07.089Z', is_public: true }),
    beta: await insertFleet(alice, 'Beta-Fleet', { created_at: '2024-12-31T23:59:59.999Z' }),
    gamma: await insertFleet(alice, "it's", { created_at: '2025-03-05T00:00:00.000Z', is_accessible_by_support_until__date: '2030-01-01T00:00:00Z' }),
  };
});
afterAll(async () => {
  await t.close();
});

describe('response shapes', () => {
  it('returns {"d":[…]} with FKs as {"__id"}, null FKs, ISO dates and JSON columns as JSON', async () => {
    const [alpha] = await get(`/v7/application(${apps.alpha})`);
    expect(alpha).toMatchObject({
      id: apps.alpha,
      app_name: 'alpha',
      organization: { __id: alice.orgId },
      is_for__device_type: { __id: rpi3 },
      application_type: null,
      created_at: '2025-03-04T05:06:07.089Z',
      is_public: true,
      is_accessible_by_support_until__date: null,
    });
    const [dt] = await get(`/v7/device_type(${rpi3})?$select=slug,contract`);
    expect(dt).toEqual({ slug: 'raspberrypi3', contract: expect.objectContaining({ slug: 'raspberrypi3', type: 'hw.device-type' }) });
  });

  it('never returns secret fields', async () => {
    const [me] = await get('/v7/user');
    expect(me).toMatchObject({ id: alice.userId, username: alice.username });
    expect(me).not.toHaveProperty('password');
    expect(me).not.toHaveProperty('tokens_valid_after');
  });

  it('answers a by-key GET with an array, and a missing id with 200 {"d":[]}', async () => {
    expect(ids(await get(`/v7/application(${apps.beta})?$select=id`))).toEqual([apps.beta]);
    expect(await get('/v7/application(999999)')).toEqual([]);
  });

  it('serves /v6 as an alias', async () => {
    expect(await get(`/v6/application(${apps.alpha})?$select=app_name`)).toEqual([{ app_name: 'alpha' }]);
  });

  it('answers /$count with {"d":N}', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v7/cpu_architecture/$count', headers: bearer(alice.token) });
    expect(res.json()).toEqual({ d: 5 });
    const filtered = await t.app.inject({ method: 'GET', url: "/v7/device_type/$count?$filter=startswith(slug,'raspberry')", headers: bearer(alice.token) });
    expect(filtered.json()).toEqual({ d: 5 });
  });
});

describe('keys', () => {
  it('reads by alternate key', async () => {
    expect(await get(`/v7/organization(handle='${alice.username}')?$select=id`)).toEqual([{ id: alice.orgId }]);
    expect(ids(await get("/v7/device_type(slug='raspberrypi3')"))).toEqual([rpi3]);
  });

  it('reads by composite key', async () => {
    const rows = await get(`/v7/organization_membership(user=${alice.userId},is_member_of__organization=${alice.orgId})?$select=user`);
    expect(rows).toEqual([{ user: { __id: alice.userId } }]);
  });
});

describe('$select, $orderby, $top, $skip', () => {
  it('deduplicates $select fields and orders', async () => {
    const rows = await get('/v7/cpu_architecture?$select=slug,slug,id&$orderby=slug asc');
    expect(rows.map((r) => r.slug)).toEqual(['aarch64', 'amd64', 'armv7hf', 'i386', 'rpi']);
    expect(Object.keys(rows[0]!)).toEqual(['slug', 'id']);
  });

  it('pages with $top and $skip', async () => {
    const rows = await get('/v7/cpu_architecture?$select=slug&$orderby=slug desc&$top=2&$skip=1');
    expect(rows.map((r) => r.slug)).toEqual(['i386', 'armv7hf']);
  });

  it('orders by a path through a to-one navigation and by nav/$count desc', async () => {
    const byArch = await get('/v7/device_type?$select=slug&$orderby=is_of__cpu_architecture/slug asc,slug asc&$top=3');
    expect(byArch.map((r) => r.slug)).toEqual(['generic-aarch64', 'jetson-nano', 'radxa-zero']);
    const byAliases = await get('/v7/device_type?$select=slug&$orderby=device_type_alias/$count desc,slug asc&$top=3');
    expect(byAliases.map((r) => r.slug)).toEqual(['beaglebone-black', 'intel-nuc', 'raspberry-pi']);
  });
});

describe('$filter', () => {
  let all: { id: number; slug: string; name: string }[];
  beforeAll(async () => {
    all = (await get('/v7/device_type?$select=id,slug,name')) as typeof all;
  });
  // Sorted here, not by the database, so the comparison does not depend on its collation.
  const slugs = async (filter: string) => (await get(`/v7/device_type?$select=slug&$filter=${filter}`)).map((r) => r.slug as string).sort();
  const expected = (pred: (d: { id: number; slug: string; name: string }) => boolean) => all.filter(pred).map((d) => d.slug).sort();

  const cases: [string, (d: { id: number; slug: string; name: string }) => boolean][] = [
    ["slug eq 'fincm3'", (d) => d.slug === 'fincm3'],
    ["slug ne 'fincm3'", (d) => d.slug !== 'fincm3'],
    ["slug gt 'r'", (d) => d.slug > 'r'],
    ["slug ge 'raspberrypi3'", (d) => d.slug >= 'raspberrypi3'],
    ["slug lt 'g'", (d) => d.slug < 'g'],
    ["slug le 'fincm3'", (d) => d.slug <= 'fincm3'],
    ["slug in ('fincm3', 'intel-nuc', 'nope')", (d) => ['fincm3', 'intel-nuc'].includes(d.slug)],
    ["slug in ('fincm3', null)", (d) => d.slug === 'fincm3'],
    ["not(slug in ('fincm3', 'intel-nuc'))", (d) => !['fincm3', 'intel-nuc'].includes(d.slug)],
    ["slug eq 'fincm3' or slug eq 'intel-nuc'", (d) => d.slug === 'fincm3' || d.slug === 'intel-nuc'],
    ["startswith(slug,'rasp') and not(endswith(slug,'-64'))", (d) => d.slug.startsWith('rasp') && !d.slug.endsWith('-64')],
    ["contains(name,'Pi')", (d) => d.name.includes('Pi')],
    ['length(slug) eq 6', (d) => d.slug.length === 6],
    ["indexof(slug,'pi') eq 9", (d) => d.slug.indexOf('pi') === 9],
    ["substring(slug,1,3) eq 'asp'", (d) => d.slug.substring(1, 4) === 'asp'],
    ["substring(slug,9) eq 'pi3'", (d) => d.slug.substring(9) === 'pi3'],
    ["tolower(name) eq 'intel nuc'", (d) => d.name.toLowerCase() === 'intel nuc'],
    ["toupper(slug) eq 'FINCM3'", (d) => d.slug.toUpperCase() === 'FINCM3'],
    ["trim(concat(' ', slug)) eq 'fincm3'", (d) => d.slug === 'fincm3'],
    ['length(slug) add 1 eq 7', (d) => d.slug.length + 1 === 7],
    ['length(slug) sub 1 eq 5', (d) => d.slug.length - 1 === 5],
    ['length(slug) mul 2 eq 12', (d) => d.slug.length * 2 === 12],
    ['length(slug) div 5 eq 2', (d) => Math.trunc(d.slug.length / 5) === 2],
    ['length(slug) mod 2 eq 1', (d) => d.slug.length % 2 === 1],
    ['round(length(slug)) eq 6 and floor(length(slug)) eq 6 and ceiling(length(slug)) eq 6', (d) => d.slug.length === 6],
  ];
  for (const [filter, pred] of cases) {
    it(filter, async () => {
      const got = await slugs(encodeURIComponent(filter));
      expect(got).toEqual(expected(pred));
      expect(got.length).toBeGreaterThan(0);
    });
  }

  it('applies date functions in UTC', async () => {
    // Alice's fleets (the platform's public host OS catalogue is readable too).
    const f = (filter: string) => get(`/v7/application?$select=app_name&$orderby=id asc&$filter=${encodeURIComponent(`organization eq ${alice.orgId} and (${filter})`)}`);
    expect(await f('year(created_at) eq 2025 and month(created_at) eq 3 and day(created_at) eq 4')).toEqual([{ app_name: 'alpha' }]);
    expect(await f('hour(created_at) eq 5 and minute(created_at) eq 6 and second(created_at) eq 7')).toEqual([{ app_name: 'alpha' }]);
    expect(await f("date(created_at) eq date'2024-12-31'")).toEqual([{ app_name: 'Beta-Fleet' }]);
    expect(await f("time(created_at) eq '00:00:00'")).toEqual([{ app_name: "it's" }]);
    expect(await f("created_at gt datetime'2025-01-01T00:00:00.000Z' and created_at lt now()")).toEqual([{ app_name: 'alpha' }, { app_name: "it's" }]);
    expect(await f('is_accessible_by_support_until__date ne null')).toEqual([{ app_name: "it's" }]);
  });

  it('reads a percent-encoded string with a doubled quote (pinejs wire form)', async () => {
    expect(await get('/v7/application?$select=id&$filter=app_name%20eq%20%27it%27%27s%27')).toEqual([{ id: apps.gamma }]);
  });

  it('filters through lambdas over to-many and to-one navigations, nested', async () => {
    expect(await slugs("device_type_alias/any(dta:dta/is_referenced_by__alias eq 'nuc')")).toEqual(['intel-nuc']);
    expect(await slugs("is_of__cpu_architecture/any(a:a/slug eq 'amd64')")).toEqual(['generic-amd64', 'genericx86-64-ext', 'intel-nuc']);
    expect(await slugs("is_of__cpu_architecture/any(a:a/is_supported_by__device_type/any(o:o/slug eq 'fincm3'))")).toEqual(
      expected((d) => ['beaglebone-black', 'fincm3', 'raspberry-pi2', 'raspberrypi3'].includes(d.slug)),
    );
    expect(await slugs("device_type_alias/all(dta:startswith(dta/is_referenced_by__alias,'rasp'))")).toEqual(
      expected((d) => ['raspberry-pi', 'raspberry-pi2', 'raspberrypi3', 'raspberrypi3-64', 'raspberrypi4-64'].includes(d.slug)),
    );
    expect((await slugs('device_type_alias/any(d:1 eq 1)')).length).toBe(all.length);
    expect(await slugs("is_of__cpu_architecture/slug eq 'rpi'")).toEqual(['raspberry-pi']);
  });

  it('filters on nav/$count($filter=…)', async () => {
    expect(await slugs('device_type_alias/$count gt 1')).toEqual(expected((d) => ['beaglebone-black', 'intel-nuc', 'raspberry-pi', 'raspberrypi4-64'].includes(d.slug)));
    expect(await slugs("device_type_alias/$count($filter=is_referenced_by__alias ne 'raspberrypi') gt 1")).toEqual(
      expected((d) => ['beaglebone-black', 'intel-nuc', 'raspberrypi4-64'].includes(d.slug)),
    );
  });
});

describe('$expand', () => {
  it('expands to-one as an array, with nested $select', async () => {
    const [dt] = await get(`/v7/device_type(${rpi3})?$select=slug&$expand=is_of__cpu_architecture($select=slug)`);
    expect(dt).toEqual({ slug: 'raspberrypi3', is_of__cpu_architecture: [{ slug: 'armv7hf' }] });
  });

  it('expands to-many with nested $filter, $orderby, $top, $skip and $expand', async () => {
    const [arch] = await get(
      "/v7/cpu_architecture(slug='aarch64')?$select=slug&$expand=is_supported_by__device_type($select=slug;$orderby=slug desc;$top=2;$skip=1;$filter=slug ne 'x';$expand=device_type_alias($select=is_referenced_by__alias;$orderby=is_referenced_by__alias asc))",
    );
    expect(arch).toEqual({
      slug: 'aarch64',
      is_supported_by__device_type: [
        { slug: 'raspberrypi3-64', device_type_alias: [{ is_referenced_by__alias: 'raspberrypi3-64' }] },
        { slug: 'radxa-zero', device_type_alias: [{ is_referenced_by__alias: 'radxa-zero' }] },
      ],
    });
  });

  it('expands a null to-one as [] and shares one target between rows', async () => {
    const rows = await get(`/v7/application?$select=app_name&$orderby=id asc&$filter=organization eq ${alice.orgId}&$expand=application_type,organization($select=id)`);
    expect(rows).toEqual([
      { app_name: 'alpha', application_type: [], organization: [{ id: alice.orgId }] },
      { app_name: 'Beta-Fleet', application_type: [], organization: [{ id: alice.orgId }] },
      { app_name: "it's", application_type: [], organization: [{ id: alice.orgId }] },
    ]);
  });

  it('expands an empty to-many as []', async () => {
    const [arch] = await get("/v7/cpu_architecture(slug='i386')?$select=slug&$expand=is_supported_by__device_type");
    expect(arch).toEqual({ slug: 'i386', is_supported_by__device_type: [] });
  });

  it('expands nav/$count($filter=…) as an integer', async () => {
    const rows = await get("/v7/device_type?$select=slug&$filter=startswith(slug,'raspberrypi')&$orderby=slug asc&$expand=device_type_alias/$count($filter=is_referenced_by__alias ne 'raspberrypi4')");
    expect(rows).toEqual([
      { slug: 'raspberrypi3', device_type_alias: 1 },
      { slug: 'raspberrypi3-64', device_type_alias: 1 },
      { slug: 'raspberrypi4-64', device_type_alias: 1 },
    ]);
  });

  it('keeps the page order and limit when expanding', async () => {
    const rows = await get('/v7/application?$select=app_name&$orderby=id desc&$top=2&$expand=organization($select=handle)');
    expect(rows).toEqual([
      { app_name: "it's", organization: [{ handle: alice.username }] },
      { app_name: 'Beta-Fleet', organization: [{ handle: alice.username }] },
    ]);
  });

  it('expands organization memberships with their role (the dashboard member list)', async () => {
    const [org] = await get(`/v7/organization(${alice.orgId})?$select=id&$expand=organization_membership($select=user;$expand=organization_membership_role($select=name))`);
    expect(org).toEqual({ id: alice.orgId, organization_membership: [{ user: { __id: alice.userId }, organization_membership_role: [{ name: 'administrator' }] }] });
  });
});
