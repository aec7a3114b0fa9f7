import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOrganizationMember, bearer, buildTestApp, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';

// Two tenants and the fleet-access resources: tenant B can neither read A's teams, team
// memberships, team fleet access or fleet memberships (by id, by filter probe, by expand),
// nor change, delete or add to them.
let t: TestApp;
let a: SignedUpUser;
let aMember: SignedUpUser;
let b: SignedUpUser;
let fleetA: number;
let fleetB: number;
let teamA: number;
let teamB: number;
const ids: Record<string, number> = {};
const role: Record<string, number> = {};

const req = (token: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

async function post(token: string, url: string, payload: object): Promise<number> {
  const res = await req(token, 'POST', url, payload);
  expect(res.statusCode, `${url} ${res.body}`).toBe(201);
  return res.json().id;
}

beforeAll(async () => {
  t = await buildTestApp();
  a = await signUp(t.app);
  aMember = await signUp(t.app);
  b = await signUp(t.app);
  const dt = (await req(a.token, 'GET', `/v7/device_type?$select=id&$filter=slug eq 'raspberrypi3'`)).json().d[0].id;
  for (const r of (await req(a.token, 'GET', '/v7/application_membership_role?$select=id,name')).json().d) role[r.name] = r.id;
  await addOrganizationMember(t.db, aMember.userId, a.orgId);
  fleetA = await post(a.token, '/v7/application', { app_name: 'TenantAFleet', organization: a.orgId, is_for__device_type: dt });
  fleetB = await post(b.token, '/v7/application', { app_name: 'TenantBFleet', organization: b.orgId, is_for__device_type: dt });
  teamA = await post(a.token, '/v7/team', { name: 'ATeam', belongs_to__organization: a.orgId });
  teamB = await post(b.token, '/v7/team', { name: 'BTeam', belongs_to__organization: b.orgId });
  ids.team = teamA;
  ids.team_membership = await post(a.token, '/v7/team_membership', { user: aMember.userId, is_member_of__team: teamA });
  ids.team_application_access = await post(a.token, '/v7/team_application_access', { team: teamA, grants_access_to__application: fleetA, application_membership_role: role.developer });
  ids.user_application_membership = await post(a.token, '/v7/user_application_membership', { user: aMember.userId, is_member_of__application: fleetA, application_membership_role: role.operator });
});
afterAll(async () => {
  await t.close();
});

async function snapshot() {
  const q = async (sql: string) => (await t.db.query(sql, [a.orgId])).rows;
  return {
    teams: await q('SELECT * FROM team WHERE belongs_to__organization = $1 ORDER BY id'),
    members: await q('SELECT tm.* FROM team_membership tm JOIN team t ON t.id = tm.is_member_of__team WHERE t.belongs_to__organization = $1 ORDER BY tm.id'),
    access: await q('SELECT ta.* FROM team_application_access ta JOIN application x ON x.id = ta.grants_access_to__application WHERE x.organization = $1 ORDER BY ta.id'),
    fleetMembers: await q('SELECT m.* FROM user_application_membership m JOIN application x ON x.id = m.is_member_of__application WHERE x.organization = $1 ORDER BY m.id'),
    fleets: await q('SELECT id, app_name, organization FROM application WHERE organization = $1 ORDER BY id'),
  };
}

describe('fleet-access isolation', () => {
  it('A (and its member) read them', async () => {
    for (const [resource, id] of Object.entries(ids)) {
      expect((await req(a.token, 'GET', `/v7/${resource}(${id})?$select=id`)).json().d, resource).toEqual([{ id }]);
    }
    expect((await req(aMember.token, 'GET', `/v7/team_membership(${ids.team_membership})?$select=id`)).json().d).toHaveLength(1);
  });

  it('B cannot read them by id or by filter', async () => {
    for (const [resource, id] of Object.entries(ids)) {
      for (const url of [`/v7/${resource}(${id})`, `/v7/${resource}?$filter=id eq ${id}`, `/v7/${resource}/$count`]) {
        const res = await req(b.token, 'GET', url);
        expect(res.statusCode, url).toBe(200);
        if (url.endsWith('$count')) expect(res.json().d, url).toBe(resource === 'team' ? 1 : 0);
        else expect(res.json(), url).toEqual({ d: [] });
      }
    }
    expect((await req(b.token, 'GET', `/v7/team?$select=id&$filter=belongs_to__organization eq ${a.orgId}`)).json().d).toEqual([]);
    expect((await req(b.token, 'GET', `/v7/user(${aMember.userId})`)).json()).toEqual({ d: [] });
  });

  it('B learns nothing by filtering or expanding through them', async () => {
    const probes = [
      `/v7/organization?$filter=owns__team/any(x:x/name eq 'ATeam')`,
      `/v7/team?$filter=team_membership/any(m:m/user/any(u:u/id eq ${aMember.userId}))`,
      `/v7/team?$filter=team_application_access/any(x:x/grants_access_to__application eq ${fleetA})`,
      `/v7/application?$filter=team_application_access/any(x:x/team eq ${teamA})`,
      `/v7/application?$filter=user_application_membership/any(x:x/user eq ${aMember.userId})`,
      `/v7/user?$filter=team_membership/$count gt 0 or user_application_membership/$count gt 0`,
    ];
    for (const url of probes) {
      const res = await req(b.token, 'GET', url);
      expect(res.statusCode, url).toBe(200);
      expect(res.json().d, url).toEqual([]);
    }
    const expanded = await req(b.token, 'GET', `/v7/organization(${b.orgId})?$select=id&$expand=owns__team($select=name;$expand=team_membership($select=id),team_application_access($select=id))`);
    expect(expanded.json().d).toEqual([{ id: b.orgId, owns__team: [{ name: 'BTeam', team_membership: [], team_application_access: [] }] }]);
    const mine = await req(b.token, 'GET', `/v7/user(${b.userId})?$select=id&$expand=team_membership/$count,user_application_membership/$count`);
    expect(mine.json().d).toEqual([{ id: b.userId, team_membership: 0, user_application_membership: 0 }]);
  });

  it('B cannot PATCH or DELETE them, by id or by filter', async () => {
    const before = await snapshot();
    const writes: { method: 'PATCH' | 'DELETE'; url: string; payload?: object }[] = [
      { method: 'PATCH', url: `/v7/team(${teamA})`, payload: { name: 'pwned' } },
      { method: 'PATCH', url: `/v7/team?$filter=belongs_to__organization eq ${a.orgId}`, payload: { name: 'pwned' } },
      { method: 'PATCH', url: `/v7/team_application_access(${ids.team_application_access})`, payload: { application_membership_role: role.administrator } },
      { method: 'PATCH', url: `/v7/user_application_membership(${ids.user_application_membership})`, payload: { application_membership_role: role.administrator } },
      { method: 'PATCH', url: `/v7/user_application_membership?$filter=is_member_of__application eq ${fleetA}`, payload: { application_membership_role: role.administrator } },
    ];
    for (const [resource, id] of Object.entries(ids)) {
      writes.push({ method: 'DELETE', url: `/v7/${resource}(${id})` }, { method: 'DELETE', url: `/v7/${resource}?$filter=id eq ${id}` });
    }
    for (const w of writes) {
      const res = await req(b.token, w.method, w.url, w.payload);
      expect(res.statusCode, `${w.method} ${w.url}`).toBeLessThan(500);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('B cannot add itself to A’s team or fleet, nor give its team access to A’s fleet', async () => {
    const before = await snapshot();
    const attempts = [
      ['/v7/team_membership', { user: b.userId, is_member_of__team: teamA }],
      ['/v7/team_membership', { username: b.username, is_member_of__team: teamA }],
      ['/v7/user_application_membership', { user: b.userId, is_member_of__application: fleetA, application_membership_role: role.administrator }],
      ['/v7/team_application_access', { team: teamB, grants_access_to__application: fleetA, application_membership_role: role.administrator }],
      ['/v7/team_application_access', { team: teamA, grants_access_to__application: fleetB, application_membership_role: role.administrator }],
      ['/v7/team', { name: 'Intruders', belongs_to__organization: a.orgId }],
    ] as const;
    for (const [url, payload] of attempts) {
      const res = await req(b.token, 'POST', url, payload);
      expect([400, 401], `${url} ${JSON.stringify(payload)}`).toContain(res.statusCode);
    }
    expect(await snapshot()).toEqual(before);
    expect((await req(b.token, 'GET', `/v7/application(${fleetA})`)).json()).toEqual({ d: [] });
  });

  it('deleting a fleet, team or organization removes their access rows', async () => {
    await req(a.token, 'DELETE', `/v7/application(${fleetA})`);
    expect((await t.db.query('SELECT 1 FROM team_application_access UNION ALL SELECT 1 FROM user_application_membership WHERE is_member_of__application = $1', [fleetA])).rowCount).toBe(0);
    await req(a.token, 'DELETE', `/v7/team(${teamA})`);
    expect((await t.db.query('SELECT 1 FROM team_membership WHERE is_member_of__team = $1', [teamA])).rowCount).toBe(0);
    expect((await req(b.token, 'DELETE', `/v7/organization(${b.orgId})`)).statusCode).toBe(200);
    expect((await t.db.query('SELECT 1 FROM team WHERE id = $1', [teamB])).rowCount).toBe(0);
  });
});
