import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, removeOsCatalogue, signUp, type SignedUpUser, type TestApp } from './harness.js';

// Two tenants: user B must never read or change user A's organization or fleets, nor learn
// anything about them through filters, expands or ordering.
let t: TestApp;
let a: SignedUpUser;
let b: SignedUpUser;
let fleetId: number;

const get = (token: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });

beforeAll(async () => {
  t = await buildTestApp();
  // This file compares every application a caller reads with the ones it made.
  await removeOsCatalogue(t.db);
  a = await signUp(t.app);
  b = await signUp(t.app);
  const dt = (await get(a.token, `/v7/device_type?$select=id&$filter=slug eq 'raspberrypi3'`)).json().d[0].id;
  const res = await t.app.inject({
    method: 'POST',
    url: '/v7/application',
    headers: bearer(a.token),
    payload: { app_name: 'TenantAFleet', organization: a.orgId, is_for__device_type: dt },
  });
  expect(res.statusCode).toBe(201);
  fleetId = res.json().id;
});
afterAll(async () => {
  await t.close();
});

async function snapshot() {
  const org = await t.db.query('SELECT id, name, handle FROM organization WHERE id = $1', [a.orgId]);
  const fleet = await t.db.query('SELECT id, app_name, organization, is_public FROM application WHERE id = $1', [fleetId]);
  const members = await t.db.query('SELECT id, "user", organization_membership_role FROM organization_membership WHERE is_member_of__organization = $1', [a.orgId]);
  return { org: org.rows, fleet: fleet.rows, members: members.rows };
}

describe('two-tenant isolation', () => {
  it('A sees its own organization and fleet', async () => {
    expect((await get(a.token, `/v7/organization(${a.orgId})?$select=id`)).json()).toEqual({ d: [{ id: a.orgId }] });
    expect((await get(a.token, `/v7/application(${fleetId})?$select=id`)).json()).toEqual({ d: [{ id: fleetId }] });
  });

  it("B cannot read A's organization or fleet by id, alternate key or listing", async () => {
    for (const url of [
      `/v7/organization(${a.orgId})`,
      `/v7/organization(handle='${a.username}')`,
      `/v7/application(${fleetId})`,
      `/v7/application?$filter=id eq ${fleetId}`,
      `/v7/organization_membership?$filter=is_member_of__organization eq ${a.orgId}`,
      `/v7/user?$filter=id eq ${a.userId}`,
    ]) {
      const res = await get(b.token, url);
      expect(res.statusCode, url).toBe(200);
      expect(res.json(), url).toEqual({ d: [] });
    }
    const orgs = (await get(b.token, '/v7/organization?$select=id')).json().d.map((o: { id: number }) => o.id);
    expect(orgs).toEqual([b.orgId]);
    expect((await get(b.token, '/v7/application/$count')).json()).toEqual({ d: 0 });
  });

  it("B learns nothing by filtering, expanding or ordering through A's data", async () => {
    // B's own organization filtered by navigations into A's data: must behave as if those rows did not exist.
    const probes = [
      `/v7/organization?$filter=application/any(x:x/app_name eq 'TenantAFleet')`,
      `/v7/organization?$filter=organization_membership/any(m:m/user/any(u:u/username eq '${a.username}'))`,
      `/v7/device_type?$filter=is_default_for__application/any(x:x/app_name eq 'TenantAFleet')`,
      `/v7/device_type?$filter=is_default_for__application/$count gt 0`,
    ];
    for (const url of probes) {
      const res = await get(b.token, url);
      expect(res.statusCode, url).toBe(200);
      expect(res.json().d, url).toEqual([]);
    }
    const expanded = await get(b.token, `/v7/device_type?$select=slug&$filter=slug eq 'raspberrypi3'&$expand=is_default_for__application($select=id)`);
    expect(expanded.statusCode).toBe(200);
    expect(expanded.json().d).toEqual([{ slug: 'raspberrypi3', is_default_for__application: [] }]);
    const counted = await get(b.token, `/v7/device_type?$select=slug&$filter=slug eq 'raspberrypi3'&$expand=is_default_for__application/$count`);
    expect(counted.json().d).toEqual([{ slug: 'raspberrypi3', is_default_for__application: 0 }]);
    // Ordering by a count of A's fleets must not reorder anything for B (all counts are 0).
    const ordered = await get(b.token, `/v7/device_type?$select=slug&$orderby=is_default_for__application/$count desc,slug asc&$top=1`);
    expect(ordered.json().d).toEqual([{ slug: 'beaglebone-black' }]);
  });

  it("B cannot PATCH or DELETE A's organization, fleet or memberships, by id or by filter", async () => {
    const before = await snapshot();
    const writes = [
      { method: 'PATCH' as const, url: `/v7/organization(${a.orgId})`, payload: { name: 'pwned' } },
      { method: 'PATCH' as const, url: `/v7/organization?$filter=id eq ${a.orgId}`, payload: { name: 'pwned' } },
      { method: 'PATCH' as const, url: `/v7/application(${fleetId})`, payload: { app_name: 'pwned', is_public: true } },
      { method: 'PATCH' as const, url: `/v7/application?$filter=organization eq ${a.orgId}`, payload: { is_public: true } },
      { method: 'DELETE' as const, url: `/v7/application(${fleetId})` },
      { method: 'DELETE' as const, url: `/v7/application?$filter=app_name eq 'TenantAFleet'` },
      { method: 'DELETE' as const, url: `/v7/organization(${a.orgId})` },
      { method: 'DELETE' as const, url: `/v7/organization_membership?$filter=is_member_of__organization eq ${a.orgId}` },
    ];
    for (const w of writes) {
      const res = await t.app.inject({ ...w, headers: bearer(b.token) });
      expect(res.statusCode, `${w.method} ${w.url}`).toBeLessThan(500);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("B cannot create a fleet in A's organization or make itself a member of it", async () => {
    const before = await snapshot();
    const dt = (await get(b.token, `/v7/device_type?$select=id&$filter=slug eq 'raspberrypi3'`)).json().d[0].id;
    const fleet = await t.app.inject({ method: 'POST', url: '/v7/application', headers: bearer(b.token), payload: { app_name: 'Intruder', organization: a.orgId, is_for__device_type: dt } });
    expect(fleet.statusCode).toBe(401);
    const role = (await get(b.token, `/v7/organization_membership_role?$filter=name eq 'administrator'`)).json().d[0].id;
    const member = await t.app.inject({
      method: 'POST',
      url: '/v7/organization_membership',
      headers: bearer(b.token),
      payload: { user: b.userId, is_member_of__organization: a.orgId, organization_membership_role: role },
    });
    expect(member.statusCode).toBe(401);
    expect(await snapshot()).toEqual(before);
    const { rowCount } = await t.db.query(`SELECT 1 FROM application WHERE app_name = 'Intruder'`);
    expect(rowCount).toBe(0);
  });
});

describe('moving rows between tenants', () => {
  it("an organization administrator cannot move their fleet into another tenant's organization", async () => {
    const dt = (await get(b.token, `/v7/device_type?$select=id&$filter=slug eq 'raspberrypi3'`)).json().d[0].id;
    const own = await t.app.inject({ method: 'POST', url: '/v7/application', headers: bearer(b.token), payload: { app_name: 'BFleet', organization: b.orgId, is_for__device_type: dt } });
    expect(own.statusCode).toBe(201);
    const res = await t.app.inject({ method: 'PATCH', url: `/v7/application(${own.json().id})`, headers: bearer(b.token), payload: { organization: a.orgId } });
    expect(res.statusCode).toBe(401);
    const { rows } = await t.db.query('SELECT organization FROM application WHERE id = $1', [own.json().id]);
    expect(rows).toEqual([{ organization: b.orgId }]);
    // Moving it between two organizations B administers works.
    const org2 = await t.app.inject({ method: 'POST', url: '/v7/organization', headers: bearer(b.token), payload: { name: `b-second-${b.userId}` } });
    expect(org2.statusCode).toBe(201);
    const moved = await t.app.inject({ method: 'PATCH', url: `/v7/application(${own.json().id})`, headers: bearer(b.token), payload: { organization: org2.json().id } });
    expect(moved.statusCode).toBe(200);
    expect((await get(b.token, `/v7/application(${own.json().id})?$select=slug`)).json().d).toEqual([{ slug: `b_second_${b.userId}/bfleet` }]);
  });
});
