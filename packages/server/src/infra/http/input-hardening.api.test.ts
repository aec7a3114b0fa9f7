import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';
import { createFleet, hex, requester, row } from '../../../test/support/fleet-helpers.js';
import { insertDevice, type TestDevice } from '../../../test/support/cloud-link.js';

// Issue 11 (1e): input that used to reach hand-written SQL or the URI decoder and answer 500
// is refused at the edge with a 4xx in the dialect's shape (a JSON string), and every route
// declares schemas for its input.
let t: TestApp;
let req: ReturnType<typeof requester>;
let alice: SignedUpUser;
let fleet: number;
let devices: TestDevice[];

beforeAll(async () => {
  t = await buildTestApp();
  req = requester(t.app);
  alice = await signUp(t.app);
  fleet = await createFleet(t.app, t.db, alice, 'HardenedFleet');
  devices = await Promise.all([1, 2, 3].map(() => insertDevice(t.db, fleet)));
});
afterAll(async () => {
  await t?.close();
});

/** A 4xx whose body is a JSON string (the dialect's error shape). */
function expectClientError(res: { statusCode: number; body: string; headers: Record<string, unknown> }): void {
  expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, res.body).toBeLessThan(500);
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  expect(typeof JSON.parse(res.body)).toBe('string');
}

describe('NUL characters in strings that reach hand-written SQL', () => {
  const NUL = 'a\u0000b';
  it('/login_, /oauth/token, API-key names, team and organization names, the profile and the state report answer 4xx', async () => {
    const cases = [
      await t.app.inject({ method: 'POST', url: '/login_', payload: { username: NUL, password: 'whatever-password' } }),
      await t.app.inject({ method: 'POST', url: '/login_', payload: { username: alice.username, password: NUL } }),
      await t.app.inject({ method: 'POST', url: '/oauth/token', payload: { grant_type: 'authorization_code', code: NUL, client_id: NUL } }),
      await req(alice.token, 'POST', '/api-key/user/full', { name: NUL }),
      await req(alice.token, 'POST', '/v7/team', { name: NUL, belongs_to__organization: alice.orgId }),
      await req(alice.token, 'POST', '/v7/organization', { name: NUL }),
      await req(alice.token, 'PATCH', '/user/profile', { first_name: NUL, last_name: 'L', company: 'C', account_type: 'personal' }),
      await req(devices[0]!.key, 'PATCH', '/device/v3/state', { [devices[0]!.uuid]: { status: NUL } }),
      await t.app.inject({ method: 'GET', url: `/v7/application?$filter=app_name eq '%00'`, headers: bearer(alice.token) }),
    ];
    for (const res of cases) expectClientError(res);
    expect(await row(t.db, 'SELECT status FROM device WHERE id = $1', [devices[0]!.id])).toEqual({ status: null });
  });
});

describe('out-of-range numbers in state reports', () => {
  it('provisioning_progress 2^53 and download_progress 1e300 answer 400 and store nothing', async () => {
    const [d] = devices;
    const big = await req(d!.key, 'PATCH', '/device/v3/state', { [d!.uuid]: { provisioning_progress: 9007199254740992 } });
    expectClientError(big);
    const huge = await t.app.inject({
      method: 'PATCH',
      url: '/device/v3/state',
      headers: { ...bearer(d!.key), 'content-type': 'application/json' },
      payload: `{"${d!.uuid}":{"download_progress":1e300,"apps":{"x":{"releases":{"c":{"services":{"main":{"status":"Downloading","download_progress":1e300}}}}}}}}`,
    });
    expectClientError(huge);
    expect(await row(t.db, 'SELECT provisioning_progress, download_progress FROM device WHERE id = $1', [d!.id])).toEqual({
      provisioning_progress: null,
      download_progress: null,
    });
  });

  it('one bad report in a group never fails the others', async () => {
    const [, good1, good2] = devices;
    const bad = devices[0]!;
    const results = await Promise.all([
      req(good1!.key, 'PATCH', '/device/v3/state', { [good1!.uuid]: { status: 'Idle', provisioning_progress: 50 } }),
      req(bad.key, 'PATCH', '/device/v3/state', { [bad.uuid]: { status: 'Bad', provisioning_progress: 9007199254740992 } }),
      req(good2!.key, 'PATCH', '/device/v3/state', { [good2!.uuid]: { status: 'Idle', cpu_temp: 40, provisioning_progress: 75 } }),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 400, 200]);
    expect(await row(t.db, 'SELECT provisioning_progress FROM device WHERE id = $1', [good1!.id])).toEqual({ provisioning_progress: 50 });
    expect(await row(t.db, 'SELECT provisioning_progress FROM device WHERE id = $1', [good2!.id])).toEqual({ provisioning_progress: 75 });
    expect(await row(t.db, 'SELECT status FROM device WHERE id = $1', [bad.id])).toEqual({ status: null });
  });
});

describe('concurrent sign-ups whose e-mails derive the same username', () => {
  it('all succeed, each with its own username', async () => {
    const local = `same.name${hex(3)}`;
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => t.app.inject({ method: 'POST', url: '/user/register', payload: { email: `${local}@domain${i}.example.com`, password: 'correct horse battery' } })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(201));
    const { rows } = await t.db.query<{ username: string }>('SELECT username FROM "user" WHERE email LIKE $1', [`${local}@%`]);
    expect(rows).toHaveLength(8);
    expect(new Set(rows.map((r) => r.username)).size).toBe(8);
  });
});

describe('malformed text and URIs', () => {
  it('POST /supervisor/v1/blink {"uuid":"\\ud800"} answers 400, not a URIError 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/supervisor/v1/blink',
      headers: { ...bearer(alice.token), 'content-type': 'application/json' },
      payload: '{"uuid":"\\ud800"}',
    });
    expectClientError(res);
  });

  it('a malformed percent-escape in a path answers 400 in the dialect shape', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v7/application(%E0%A4%A)', headers: bearer(alice.token) });
    expectClientError(res);
  });

  it('unparsable JSON answers 400 in the dialect shape', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/login_', headers: { 'content-type': 'application/json' }, payload: '{"username": ' });
    expectClientError(res);
    expect(res.statusCode).toBe(400);
  });
});

describe('every route declares schemas for its input', () => {
  it('the registered routes all have params and body schemas (or say how they parse their own input)', () => {
    const inventory = t.app.routeInventory;
    expect(inventory.length).toBeGreaterThan(40);
    expect(inventory.filter((r) => r.problems.length > 0)).toEqual([]);
    expect(inventory.map((r) => r.url)).toEqual(expect.arrayContaining(['/device/v3/state', '/supervisor/v1/blink', '/user/v1/logout-others', '/v7/*']));
  });
});

describe('routes that read no body', () => {
  it('accept none or an empty one, and refuse content', async () => {
    const u = await signUp(t.app);
    const none = await t.app.inject({ method: 'POST', url: '/user/v1/logout-others', headers: bearer(u.token) });
    expect(none.statusCode, none.body).toBe(200);
    const empty = await t.app.inject({ method: 'POST', url: '/user/v1/logout-others', headers: bearer(none.body), payload: {} });
    expect(empty.statusCode, empty.body).toBe(200);
    expectClientError(await t.app.inject({ method: 'POST', url: '/user/v1/logout-others', headers: bearer(empty.body), payload: { x: 'y'.repeat(1000) } }));
  });
});
