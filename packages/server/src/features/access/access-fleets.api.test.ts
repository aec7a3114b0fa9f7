import { LAST_ADMINISTRATOR_RULE } from '@flotilla/model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOrganizationMember, bearer, buildTestApp, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';

// Fleet access (issue 3): fleets shared through a fleet membership or a team, the table
// rights of each fleet role (spec 2 §6), and the membership and team rules.
let t: TestApp;
let admin: SignedUpUser;
let dt: number;
const roleIds: Record<string, number> = {};
const orgRoleIds: Record<string, number> = {};

const req = (token: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

async function fleet(name: string, owner = admin, orgId = owner.orgId): Promise<number> {
  const res = await req(owner.token, 'POST', '/v7/application', { app_name: name, organization: orgId, is_for__device_type: dt });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

/** A new user who is a plain member of the admin's organization. */
async function orgMember(orgAdmin = admin, orgId = orgAdmin.orgId): Promise<SignedUpUser> {
  const u = await signUp(t.app);
  await addOrganizationMember(t.db, u.userId, orgId);
  return u;
}

async function share(fleetId: number, user: SignedUpUser, role: string) {
  const res = await req(admin.token, 'POST', '/v7/user_application_membership', {
    user: user.userId,
    is_member_of__application: fleetId,
    application_membership_role: roleIds[role],
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}

async function team(name: string, owner = admin, orgId = owner.orgId) {
  const res = await req(owner.token, 'POST', '/v7/team', { name, belongs_to__organization: orgId });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}

const visible = async (user: SignedUpUser, fleetId: number) =>
  (await req(user.token, 'GET', `/v7/application(${fleetId})?$select=id`)).json().d.length === 1;
const appName = async (id: number) => (await t.db.query<{ app_name: string }>('SELECT app_name FROM application WHERE id = $1', [id])).rows[0]?.app_name;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signUp(t.app);
  dt = (await req(admin.token, 'GET', `/v7/device_type?$select=id&$filter=slug eq 'raspberrypi3'`)).json().d[0].id;
  for (const r of (await req(admin.token, 'GET', '/v7/application_membership_role?$select=id,name')).json().d) roleIds[r.name] = r.id;
  for (const r of (await req(admin.token, 'GET', '/v7/organization_membership_role?$select=id,name')).json().d) orgRoleIds[r.name] = r.id;
});
afterAll(async () => {
  await t.close();
});

describe('fleet roles', () => {
  it('are seeded and readable by signed-in users', () => {
    expect(Object.keys(roleIds).sort()).toEqual(['administrator', 'developer', 'observer', 'operator']);
  });
});

describe('sharing a fleet', () => {
  it('through a fleet membership: visible to that member only', async () => {
    const f = await fleet('SharedDirect');
    const other = await fleet('NotShared1');
    const m1 = await orgMember();
    const m3 = await orgMember();
    await share(f, m1, 'observer');
    expect(await visible(m1, f)).toBe(true);
    expect(await visible(m1, other)).toBe(false);
    expect(await visible(m3, f)).toBe(false);
    const listed = (await req(m1.token, 'GET', `/v7/application?$select=id&$filter=organization eq ${admin.orgId}`)).json().d;
    expect(listed).toEqual([{ id: f }]);
    // The member reads the memberships of that fleet, not of the other.
    expect((await req(m1.token, 'GET', `/v7/user_application_membership?$select=id&$filter=is_member_of__application eq ${f}`)).json().d).toHaveLength(1);
    expect((await req(m3.token, 'GET', `/v7/user_application_membership?$select=id&$filter=is_member_of__application eq ${f}`)).json().d).toEqual([]);
    // Expanding from the fleet works for the member.
    const exp = await req(m1.token, 'GET', `/v7/application(${f})?$select=id&$expand=user_application_membership($select=id;$expand=application_membership_role($select=name))`);
    expect(exp.json().d[0].user_application_membership[0].application_membership_role).toEqual([{ name: 'observer' }]);
  });

  it('through a team: visible to its members only; leaving the team or the organization ends it', async () => {
    const f = await fleet('SharedTeam');
    const m2 = await orgMember();
    const m3 = await orgMember();
    const tm = await team('Viewers');
    const join = await req(admin.token, 'POST', '/v7/team_membership', { username: m2.username, is_member_of__team: tm });
    expect(join.statusCode, join.body).toBe(201);
    expect(await visible(m2, f)).toBe(false);
    const access = await req(admin.token, 'POST', '/v7/team_application_access', { team: tm, grants_access_to__application: f, application_membership_role: roleIds.observer });
    expect(access.statusCode, access.body).toBe(201);
    expect(await visible(m2, f)).toBe(true);
    expect(await visible(m3, f)).toBe(false);
    // Organization members read teams and their memberships; they cannot create teams.
    expect((await req(m3.token, 'GET', `/v7/team(${tm})?$select=name&$expand=team_membership/$count`)).json().d).toEqual([{ name: 'Viewers', team_membership: 1 }]);
    expect((await req(m3.token, 'POST', '/v7/team', { name: 'Mine', belongs_to__organization: admin.orgId })).statusCode).toBe(401);
    // m2 leaves the team.
    const leave = await req(m2.token, 'DELETE', `/v7/team_membership(${join.json().id})`);
    expect(leave.statusCode).toBe(200);
    expect(await visible(m2, f)).toBe(false);
    // Rejoin (and get a direct membership too), then leave the organization: both go.
    expect((await req(admin.token, 'POST', '/v7/team_membership', { user: m2.userId, is_member_of__team: tm })).statusCode).toBe(201);
    expect(await visible(m2, f)).toBe(true);
    await share(await fleet('SharedTeamDirect'), m2, 'developer');
    const om = (await req(m2.token, 'GET', `/v7/organization_membership?$select=id&$filter=user eq ${m2.userId} and is_member_of__organization eq ${admin.orgId}`)).json().d[0].id;
    expect((await req(m2.token, 'DELETE', `/v7/organization_membership(${om})`)).statusCode).toBe(200);
    expect(await visible(m2, f)).toBe(false);
    expect((await t.db.query('SELECT 1 FROM team_membership WHERE "user" = $1', [m2.userId])).rowCount).toBe(0);
    expect((await t.db.query('SELECT 1 FROM user_application_membership WHERE "user" = $1', [m2.userId])).rowCount).toBe(0);
  });
});

describe('table rights per fleet role (spec 2 §6)', () => {
  const cases = [
    { role: 'observer', rename: false, remove: false },
    { role: 'operator', rename: false, remove: false },
    { role: 'developer', rename: true, remove: false },
    { role: 'administrator', rename: true, remove: true },
  ];
  for (const via of ['membership', 'team'] as const) {
    for (const c of cases) {
      it(`${c.role} through a ${via}: rename ${c.rename ? 'yes' : 'no'}, delete ${c.remove ? 'yes' : 'no'}`, async () => {
        const f = await fleet(`Fleet_${via}_${c.role}`);
        const u = await orgMember();
        if (via === 'membership') {
          await share(f, u, c.role);
        } else {
          const tm = await team(`T_${c.role}`);
          expect((await req(admin.token, 'POST', '/v7/team_membership', { user: u.userId, is_member_of__team: tm })).statusCode).toBe(201);
          expect((await req(admin.token, 'POST', '/v7/team_application_access', { team: tm, grants_access_to__application: f, application_membership_role: roleIds[c.role] })).statusCode).toBe(201);
        }
        expect(await visible(u, f)).toBe(true);
        const rename = await req(u.token, 'PATCH', `/v7/application(${f})`, { app_name: `Renamed_${via}_${c.role}` });
        expect(rename.statusCode).toBe(200); // a PATCH matching no row the caller may change is a 200 no-op
        expect(await appName(f)).toBe(c.rename ? `Renamed_${via}_${c.role}` : `Fleet_${via}_${c.role}`);
        // Nobody below organization administrator creates fleets or moves them away.
        expect((await req(u.token, 'POST', '/v7/application', { app_name: `New_${via}_${c.role}`, organization: admin.orgId, is_for__device_type: dt })).statusCode).toBe(401);
        if (c.rename) {
          expect((await req(u.token, 'PATCH', `/v7/application(${f})`, { organization: u.orgId })).statusCode).toBe(401);
          expect((await t.db.query<{ organization: number }>('SELECT organization FROM application WHERE id = $1', [f])).rows[0]?.organization).toBe(admin.orgId);
        }
        // Only fleet administrators (and organization administrators) manage memberships.
        const other = await orgMember();
        const grant = await req(u.token, 'POST', '/v7/user_application_membership', { user: other.userId, is_member_of__application: f, application_membership_role: roleIds.observer });
        expect(grant.statusCode).toBe(c.remove ? 201 : 401);
        await req(u.token, 'DELETE', `/v7/application(${f})`);
        expect((await t.db.query('SELECT 1 FROM application WHERE id = $1', [f])).rowCount).toBe(c.remove ? 0 : 1);
      });
    }
  }

  it('a fleet membership cannot grant itself: a member cannot make themselves a fleet member', async () => {
    const f = await fleet('SelfGrant');
    const u = await orgMember();
    const res = await req(u.token, 'POST', '/v7/user_application_membership', { user: u.userId, is_member_of__application: f, application_membership_role: roleIds.administrator });
    expect(res.statusCode).toBe(401);
    expect(await visible(u, f)).toBe(false);
  });
});

describe('teams', () => {
  it('names are unique per organization, case-insensitively', async () => {
    await team('Platform');
    const dup = await req(admin.token, 'POST', '/v7/team', { name: 'platform', belongs_to__organization: admin.orgId });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toBe('Unique key constraint violated');
    const other = await signUp(t.app);
    await team('PLATFORM', other); // another organization may use it
    const second = await team('Platform2');
    const rename = await req(admin.token, 'PATCH', `/v7/team(${second})`, { name: 'PLATFORM' });
    expect(rename.statusCode).toBe(409);
    expect((await req(admin.token, 'PATCH', `/v7/team(${second})`, { name: 'platform2' })).statusCode).toBe(200);
    // The unique index holds even without the rule.
    await expect(t.db.query(`INSERT INTO team (name, belongs_to__organization) VALUES ('pLaTfOrM', $1)`, [admin.orgId])).rejects.toThrow(/unique/);
    expect((await req(admin.token, 'POST', '/v7/team', { name: '  ', belongs_to__organization: admin.orgId })).statusCode).toBe(400);
  });

  it('membership POSTs take a username; members must belong to the organization', async () => {
    const tm = await team('ByUsername');
    const m = await orgMember();
    const ok = await req(admin.token, 'POST', '/v7/team_membership', { username: m.username.toUpperCase(), is_member_of__team: tm });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().user).toEqual({ __id: m.userId });
    const unknown = await req(admin.token, 'POST', '/v7/team_membership', { username: 'nobody_by_that_name', is_member_of__team: tm });
    expect(unknown.statusCode).toBe(400);
    const outsider = await signUp(t.app);
    // Someone the caller shares no organization with is as unknown as a name nobody has (issue 11, 1g).
    const stranger = await req(admin.token, 'POST', '/v7/team_membership', { username: outsider.username, is_member_of__team: tm });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json()).toBe(`No user with the username '${outsider.username}'`);
    // Someone from another of the administrator's organizations meets the membership rules.
    const other = await req(admin.token, 'POST', '/v7/organization', { name: `Other ${outsider.userId}` });
    expect(other.statusCode, other.body).toBe(201);
    await addOrganizationMember(t.db, outsider.userId, other.json().id);
    const notMember = await req(admin.token, 'POST', '/v7/team_membership', { username: outsider.username, is_member_of__team: tm });
    expect(notMember.statusCode).toBe(400);
    expect(notMember.json()).toBe("A team member must be a member of the team's organization");
    const f = await fleet('ByUsernameFleet');
    const fm = await req(admin.token, 'POST', '/v7/user_application_membership', { username: m.username, is_member_of__application: f, application_membership_role: roleIds.operator });
    expect(fm.statusCode, fm.body).toBe(201);
    expect(await visible(m, f)).toBe(true);
    const outsiderFleet = await req(admin.token, 'POST', '/v7/user_application_membership', { username: outsider.username, is_member_of__application: f, application_membership_role: roleIds.operator });
    expect(outsiderFleet.statusCode).toBe(400);
    expect(outsiderFleet.json()).toBe("A fleet member must be a member of the fleet's organization");
    expect(await visible(outsider, f)).toBe(false);
  });

  it("team access only to fleets of the team's organization", async () => {
    const org2 = await req(admin.token, 'POST', '/v7/organization', { name: `second_${admin.userId}` });
    expect(org2.statusCode).toBe(201);
    const f2 = await fleet('OtherOrgFleet', admin, org2.json().id);
    const tm = await team('Scoped');
    const res = await req(admin.token, 'POST', '/v7/team_application_access', { team: tm, grants_access_to__application: f2, application_membership_role: roleIds.developer });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toBe("A team can only be given access to fleets of the team's organization");
  });

  it("joining a team raises the member's seat role to the team's highest fleet role", async () => {
    const f = await fleet('SeatFleet');
    const dev = await team('Devs');
    const obs = await team('Observers');
    await req(admin.token, 'POST', '/v7/team_application_access', { team: dev, grants_access_to__application: f, application_membership_role: roleIds.developer });
    await req(admin.token, 'POST', '/v7/team_application_access', { team: obs, grants_access_to__application: f, application_membership_role: roleIds.observer });
    const m = await orgMember();
    const seat = async () =>
      (
        await t.db.query<{ effective_seat_role: string | null }>(
          'SELECT effective_seat_role FROM organization_membership WHERE "user" = $1 AND is_member_of__organization = $2',
          [m.userId, admin.orgId],
        )
      ).rows[0]?.effective_seat_role;
    expect(await seat()).toBeNull();
    expect((await req(admin.token, 'POST', '/v7/team_membership', { user: m.userId, is_member_of__team: obs })).statusCode).toBe(201);
    expect(await seat()).toBe('observer');
    expect((await req(admin.token, 'POST', '/v7/team_membership', { user: m.userId, is_member_of__team: dev })).statusCode).toBe(201);
    expect(await seat()).toBe('developer');
    const none = await team('NoAccess');
    expect((await req(admin.token, 'POST', '/v7/team_membership', { user: m.userId, is_member_of__team: none })).statusCode).toBe(201);
    expect(await seat()).toBe('developer'); // never lowered
  });

  it("granting or raising a team's fleet access raises its members' seat roles", async () => {
    const f = await fleet('SeatLaterFleet');
    const tm = await team('LaterAccess');
    const a = await orgMember();
    const b = await orgMember();
    const seat = async (userId: number) =>
      (
        await t.db.query<{ effective_seat_role: string | null }>(
          'SELECT effective_seat_role FROM organization_membership WHERE "user" = $1 AND is_member_of__organization = $2',
          [userId, admin.orgId],
        )
      ).rows[0]?.effective_seat_role;
    for (const u of [a, b]) expect((await req(admin.token, 'POST', '/v7/team_membership', { user: u.userId, is_member_of__team: tm })).statusCode).toBe(201);
    expect(await seat(a.userId)).toBeNull();
    const access = await req(admin.token, 'POST', '/v7/team_application_access', { team: tm, grants_access_to__application: f, application_membership_role: roleIds.operator });
    expect(access.statusCode, access.body).toBe(201);
    expect(await seat(a.userId)).toBe('operator');
    expect(await seat(b.userId)).toBe('operator');
    const raise = await req(admin.token, 'PATCH', `/v7/team_application_access(${access.json().id})`, { application_membership_role: roleIds.administrator });
    expect(raise.statusCode, raise.body).toBe(200);
    expect(await seat(a.userId)).toBe('administrator');
    const lower = await req(admin.token, 'PATCH', `/v7/team_application_access(${access.json().id})`, { application_membership_role: roleIds.observer });
    expect(lower.statusCode).toBe(200);
    expect(await seat(b.userId)).toBe('administrator'); // never lowered
  });
});

describe('last organization administrator', () => {
  it('cannot be deleted nor demoted; can once another administrator exists', async () => {
    const owner = await signUp(t.app);
    const mine = (await req(owner.token, 'GET', `/v7/organization_membership?$select=id&$filter=is_member_of__organization eq ${owner.orgId}`)).json().d[0].id;
    const del = await req(owner.token, 'DELETE', `/v7/organization_membership(${mine})`);
    expect(del.statusCode).toBe(400);
    expect(del.json()).toBe(LAST_ADMINISTRATOR_RULE);
    const byFilter = await req(owner.token, 'DELETE', `/v7/organization_membership?$filter=is_member_of__organization eq ${owner.orgId}`);
    expect(byFilter.statusCode).toBe(400);
    const demote = await req(owner.token, 'PATCH', `/v7/organization_membership(${mine})`, { organization_membership_role: orgRoleIds.member });
    expect(demote.statusCode).toBe(400);
    expect(demote.json()).toBe(LAST_ADMINISTRATOR_RULE);
    expect((await t.db.query('SELECT 1 FROM organization_membership WHERE id = $1', [mine])).rowCount).toBe(1);
    // With a second administrator, one of them may be demoted (a membership cannot vouch
    // for its own change, so the other administrator does it)…
    const second = await orgMember(owner);
    const secondId = (await req(owner.token, 'GET', `/v7/organization_membership?$select=id&$filter=user eq ${second.userId}`)).json().d[0].id;
    expect((await req(owner.token, 'PATCH', `/v7/organization_membership(${secondId})`, { organization_membership_role: orgRoleIds.administrator })).statusCode).toBe(200);
    // …but not both at once.
    const both = await req(owner.token, 'PATCH', `/v7/organization_membership?$filter=id in (${mine}, ${secondId})`, { organization_membership_role: orgRoleIds.member });
    expect(both.statusCode).toBe(400);
    expect((await req(owner.token, 'DELETE', `/v7/organization_membership?$filter=id in (${mine}, ${secondId})`)).statusCode).toBe(400);
    expect((await req(second.token, 'PATCH', `/v7/organization_membership(${mine})`, { organization_membership_role: orgRoleIds.member })).statusCode).toBe(200);
    const last = await req(second.token, 'DELETE', `/v7/organization_membership(${secondId})`);
    expect(last.statusCode).toBe(400);
    expect(last.json()).toBe(LAST_ADMINISTRATOR_RULE);
    expect((await req(second.token, 'PATCH', `/v7/organization_membership(${secondId})`, { organization_membership_role: orgRoleIds.member })).statusCode).toBe(400);
    // A plain member leaves freely.
    expect((await req(owner.token, 'DELETE', `/v7/organization_membership(${mine})`)).statusCode).toBe(200);
  });
});
