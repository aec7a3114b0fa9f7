import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';

// Bad input is a 4xx with a clear message (never a 500), and changes nothing.

let t: TestApp;
let alice: SignedUpUser;
let fleetId: number;

async function send(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) {
  const res = await t.app.inject({ method, url, headers: bearer(alice.token), ...(payload ? { payload } : {}) });
  return { status: res.statusCode, message: res.body === '' ? '' : (res.json() as unknown) };
}
async function snapshot(): Promise<unknown> {
  const tables = ['application', 'organization', 'organization_membership', '"user"', 'device_type'];
  const out: Record<string, unknown> = {};
  for (const table of tables) out[table] = (await t.db.query(`SELECT * FROM ${table} ORDER BY id`)).rows;
  return out;
}

beforeAll(async () => {
  t = await buildTestApp();
  alice = await signUp(t.app);
  const { rows } = await t.db.query<{ id: number }>(
    `INSERT INTO application (actor, app_name, slug, uuid, organization, is_for__device_type)
     VALUES ($1, 'steady', $2, $3, $4, (SELECT id FROM device_type WHERE slug = 'raspberrypi3')) RETURNING id`,
    [alice.actorId, `${alice.username}/steady`, randomBytes(16).toString('hex'), alice.orgId],
  );
  fleetId = rows[0]!.id;
});
afterAll(async () => {
  await t.close();
});

describe('malformed URLs', () => {
  it('answer 400 with the parse position, for every method, changing nothing', async () => {
    const before = await snapshot();
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      for (const url of ['/v7/application?$filter=app_name eq', "/v7/application?$filter=app_name eq 'x", '/v7/application?$top=abc', '/v7/application?$filter=((']) {
        const res = await send(method, url, method === 'PATCH' ? { app_name: 'changed' } : undefined);
        expect(res.status, `${method} ${url}`).toBe(400);
        expect(res.message).toMatch(/^Malformed OData URL: .*at character \d+/);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('never answer 500 to garbage', async () => {
    const garbage = [
      '/v7/application?$filter=%',
      "/v7/application?$filter=app_name eq '%E0%A4%A'",
      '/v7/application(',
      '/v7/application()',
      '/v7/application/',
      '/v7/application?$expand=organization($filter=)',
      '/v7/application?$orderby=',
      '/v7/application?$select=',
      '/v7/application?$filter=id eq 1 and',
      '/v7/application?$filter=substring(app_name)',
      '/v7/application?$filter=id/any(x:x eq 1)',
      '/v7/application?$filter=organization/any(o:o)',
      '/v7/application?$filter=id eq 1 eq 2',
      '/v7/application?$filter=length(1) eq 1',
      '/v7/application?$skip=99999999999999999999',
      '/v7/application?$filter=id div 0 eq 1',
      "/v7/application?$filter=created_at gt 'not a date'",
      '/v7/application?$filter=id eq 99999999999999999999999',
      '/v7/application?$filter=substring(app_name,1,-1) eq \'x\'',
      '/v7/',
      '/v7/$metadata',
      '/v7/application(1)/organization',
      '/v7/application?$filter=@x eq 1',
    ];
    for (const url of garbage) {
      const res = await send('GET', url);
      expect(res.status, `${url} → ${JSON.stringify(res.message)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${url} → ${JSON.stringify(res.message)}`).toBeLessThan(500);
    }
  });
});

describe('unknown names', () => {
  it('an unknown resource is 404 for every method', async () => {
    for (const method of ['GET', 'POST', 'PATCH', 'DELETE'] as const) {
      const res = await send(method, '/v7/foo?$select=id', method === 'POST' || method === 'PATCH' ? {} : undefined);
      expect(res, method).toEqual({ status: 404, message: 'Unknown resource: foo' });
    }
  });

  it('an unknown field is 400 wherever it appears', async () => {
    const msg = "Unknown field 'nope' on resource 'application'";
    for (const url of [
      '/v7/application?$select=nope',
      '/v7/application?$filter=nope eq 1',
      '/v7/application?$orderby=nope asc',
      '/v7/application?$expand=nope',
      '/v7/application?$filter=nope/any(x:x/id eq 1)',
      '/v7/application?$expand=nope/$count',
    ]) {
      expect(await send('GET', url), url).toEqual({ status: 400, message: msg });
    }
    expect(await send('GET', "/v7/application?$expand=organization($select=nope)")).toEqual({ status: 400, message: "Unknown field 'nope' on resource 'organization'" });
  });
});

describe('secret fields do not exist for the API', () => {
  it('naming one gives exactly the unknown-field answer, wherever it appears', async () => {
    const before = await snapshot();
    const cases: [string, 'GET' | 'PATCH', string][] = [
      ['/v7/user?$select=id,password', 'GET', 'password'],
      ["/v7/user?$filter=password eq 'x'", 'GET', 'password'],
      ["/v7/user?$filter=startswith(password,'$argon')", 'GET', 'password'],
      ['/v7/user?$orderby=password asc', 'GET', 'password'],
      ['/v7/user?$expand=password', 'GET', 'password'],
      ['/v7/user?$select=tokens_valid_after', 'GET', 'tokens_valid_after'],
      ["/v7/organization?$filter=organization_membership/any(m:m/user/any(u:u/password eq 'x'))", 'GET', 'password'],
      ["/v7/organization?$expand=organization_membership($expand=user($select=password))", 'GET', 'password'],
      ["/v7/organization?$orderby=organization_membership/$count($filter=user/password eq 'x') desc", 'GET', 'password'],
      ["/v7/user?$filter=password eq 'x'", 'PATCH', 'password'],
    ];
    for (const [url, method, field] of cases) {
      const res = await send(method, url, method === 'PATCH' ? { first_name: 'x' } : undefined);
      expect(res, url).toEqual({ status: 400, message: `Unknown field '${field}' on resource 'user'` });
    }
    const key = await send('GET', "/v7/api_key?$filter=key eq 'x'");
    expect(key).toEqual({ status: 400, message: "Unknown field 'key' on resource 'api_key'" });
    expect(await send('PATCH', `/v7/user(${alice.userId})`, { password: 'x' })).toEqual({ status: 400, message: "Unknown field 'password' on resource 'user'" });
    expect(await snapshot()).toEqual(before);
  });
});

describe('wrong value types', () => {
  it('are 400 in $filter, keys and bodies, changing nothing', async () => {
    const before = await snapshot();
    const reads = [
      '/v7/application?$filter=app_name eq 5',
      "/v7/application?$filter=id eq 'one'",
      '/v7/application?$filter=is_public eq 1',
      "/v7/application('one')",
      "/v7/application?$filter=created_at gt 'not a date'",
      "/v7/application?$filter=contains(id,'1')",
      '/v7/application?$filter=app_name',
      "/v7/application?$filter=id in ('a','b')",
    ];
    for (const url of reads) {
      const res = await send('GET', url);
      expect(res.status, `${url} → ${JSON.stringify(res.message)}`).toBe(400);
    }
    for (const body of [{ app_name: 5 }, { is_public: 'true' }, { organization: 'x' }, { should_track_latest_release: null }]) {
      const res = await send('PATCH', `/v7/application(${fleetId})`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await send('PATCH', "/v7/application?$filter=app_name eq 5", { is_public: true })).status).toBe(400);
    expect((await send('DELETE', "/v7/application?$filter=id eq 'x'")).status).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it('POST to a key or to /$count is 400', async () => {
    expect((await send('POST', `/v7/organization(${alice.orgId})`, { name: 'x', handle: 'x' })).status).toBe(400);
    expect((await send('POST', '/v7/organization/$count', { name: 'x', handle: 'x' })).status).toBe(400);
  });
});
