import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOrganizationMember, bearer, buildTestApp, type SignedUpUser, signInStaff, signUp, type TestApp } from '../../../test/harness.js';

// Organization administrator vs member, and the platform administrator (issue 2 roles).
let t: TestApp;
let admin: SignedUpUser;
let member: SignedUpUser;
let fleetId: number;
let memberRoleId: number;
let membershipId: number;

const req = (token: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signUp(t.app);
  member = await signUp(t.app);
  memberRoleId = (await req(admin.token, 'GET', `/v7/organization_membership_role?$filter=name eq 'member'`)).json().d[0].id;
  membershipId = await addOrganizationMember(t.db, member.userId, admin.orgId);
  const dt = (await req(admin.token, 'GET', `/v7/device_type?$select=id&$filter=slug eq 'beaglebone-black'`)).json().d[0].id;
  const f = await req(admin.token, 'POST', '/v7/application', { app_name: 'AdminFleet', organization: admin.orgId, is_for__device_type: dt });
  expect(f.statusCode).toBe(201);
  fleetId = f.json().id;
});
afterAll(async () => {
  await t.close();
});

describe('organization member (read-only organization access)', () => {
  it('reads the organization and its memberships', async () => {
    expect((await req(member.token, 'GET', `/v7/organization(${admin.orgId})?$select=name`)).json().d).toEqual([{ name: admin.username }]);
    const ms = (await req(member.token, 'GET', `/v7/organization_membership?$select=id&$filter=is_member_of__organization eq ${admin.orgId}`)).json().d;
    expect(ms).toHaveLength(2);
  });

  it('cannot rename or delete the organization', async () => {
    await req(member.token, 'PATCH', `/v7/organization(${admin.orgId})`, { name: 'renamed-by-member' });
    await req(member.token, 'DELETE', `/v7/organization(${admin.orgId})`);
    const { rows } = await t.db.query('SELECT name FROM organization WHERE id = $1', [admin.orgId]);
    expect(rows).toEqual([{ name: admin.username }]);
  });

  it('cannot create fleets there, nor see fleets not shared with them', async () => {
    const dt = (await req(member.token, 'GET', `/v7/device_type?$select=id&$filter=slug eq 'beaglebone-black'`)).json().d[0].id;
    const res = await req(member.token, 'POST', '/v7/application', { app_name: 'MemberFleet', organization: admin.orgId, is_for__device_type: dt });
    expect(res.statusCode).toBe(401);
    expect((await req(member.token, 'GET', `/v7/application(${fleetId})`)).json()).toEqual({ d: [] });
  });

  it('cannot add or promote members', async () => {
    const outsider = await signUp(t.app);
    const add = await req(member.token, 'POST', '/v7/organization_membership', {
      user: outsider.userId,
      is_member_of__organization: admin.orgId,
      organization_membership_role: memberRoleId,
    });
    expect(add.statusCode).toBe(401);
    const adminRole = (await req(member.token, 'GET', `/v7/organization_membership_role?$filter=name eq 'administrator'`)).json().d[0].id;
    await req(member.token, 'PATCH', `/v7/organization_membership(${membershipId})`, { organization_membership_role: adminRole });
    const { rows } = await t.db.query('SELECT organization_membership_role AS r FROM organization_membership WHERE id = $1', [membershipId]);
    expect(rows).toEqual([{ r: memberRoleId }]);
  });

  it('the administrator sees and renames the fleet; the member may leave', async () => {
    const ok = await req(admin.token, 'PATCH', `/v7/application(${fleetId})`, { app_name: 'AdminFleet2' });
    expect(ok.statusCode).toBe(200);
    expect((await req(admin.token, 'GET', `/v7/application(${fleetId})?$select=app_name,slug`)).json().d).toEqual([
      { app_name: 'AdminFleet2', slug: `${admin.username}/adminfleet2` },
    ]);
    const leave = await req(member.token, 'DELETE', `/v7/organization_membership(${membershipId})`);
    expect(leave.statusCode).toBe(200);
    expect((await req(member.token, 'GET', `/v7/organization(${admin.orgId})`)).json()).toEqual({ d: [] });
  });
});

describe('platform administrator', () => {
  it('reads every organization and fleet, manages organizations and memberships, changes no fleet, and carries admin.home', async () => {
    const { token } = await signInStaff(t.app, t.db);
    expect(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).permissions).toEqual(['admin.home', 'support.home']);
    const orgs = (await req(token, 'GET', `/v7/organization?$select=id&$filter=id eq ${admin.orgId} or id eq ${member.orgId}`)).json().d;
    expect(orgs).toHaveLength(2);
    expect((await req(token, 'GET', `/v7/application(${fleetId})?$select=id`)).json().d).toEqual([{ id: fleetId }]);
    // Organization management (spec 2 §6 balena_admin): rename, membership role changes.
    expect((await req(token, 'PATCH', `/v7/organization(${member.orgId})`, { name: `renamed_by_staff_${member.orgId}` })).statusCode).toBe(200);
    expect((await t.db.query('SELECT name FROM organization WHERE id = $1', [member.orgId])).rows).toEqual([{ name: `renamed_by_staff_${member.orgId}` }]);
    // Fleets, teams: read only (spec 1 §6 team rights; fleet table rights).
    await req(token, 'PATCH', `/v7/application(${fleetId})`, { is_public: true });
    expect((await t.db.query('SELECT is_public FROM application WHERE id = $1', [fleetId])).rows).toEqual([{ is_public: false }]);
    expect((await req(token, 'POST', '/v7/team', { name: 'staff team', belongs_to__organization: admin.orgId })).statusCode).toBeGreaterThanOrEqual(400);
    expect((await t.db.query('SELECT 1 FROM team WHERE name = $1', ['staff team'])).rows).toHaveLength(0);
    // The fleet's own administrator makes it public.
    expect((await req(admin.token, 'PATCH', `/v7/application(${fleetId})`, { is_public: true })).statusCode).toBe(200);
    // Still no secrets, even for the administrator.
    expect((await req(token, 'GET', '/v7/user?$select=password')).statusCode).toBe(400);
  });

  it('acts as an ordinary user in their own organization: creates and changes fleets there, and still none elsewhere', async () => {
    // The administrator `npm start` creates has a personal organization like every user; the
    // platform role adds read access everywhere, it does not take their own rights away.
    const { token } = await signInStaff(t.app, t.db, 'administrator', 'owner-staff@example.com');
    const own = (await t.db.query<{ id: number }>(
      `SELECT m.is_member_of__organization AS id FROM organization_membership m JOIN "user" u ON u.id = m."user" WHERE u.email = 'owner-staff@example.com'`,
    )).rows[0]!.id;
    const dt = (await req(token, 'GET', `/v7/device_type?$select=id&$filter=slug eq 'beaglebone-black'`)).json().d[0].id;
    const created = await req(token, 'POST', '/v7/application', { app_name: 'StaffOwnFleet', organization: own, is_for__device_type: dt });
    expect(created.statusCode).toBe(201);
    expect((await req(token, 'PATCH', `/v7/application(${created.json().id})`, { should_track_latest_release: false })).statusCode).toBe(200);
    expect((await t.db.query('SELECT should_track_latest_release FROM application WHERE id = $1', [created.json().id])).rows).toEqual([{ should_track_latest_release: false }]);
    const elsewhere = await req(token, 'POST', '/v7/application', { app_name: 'StaffForeignFleet', organization: admin.orgId, is_for__device_type: dt });
    expect(elsewhere.statusCode).toBe(401);
    expect((await t.db.query(`SELECT 1 FROM application WHERE app_name = 'StaffForeignFleet'`)).rows).toHaveLength(0);
  });

  it('a public fleet becomes readable by anyone, signed in or not', async () => {
    const anon = await t.app.inject({ method: 'GET', url: `/v7/application(${fleetId})?$select=app_name` });
    expect(anon.json()).toEqual({ d: [{ app_name: 'AdminFleet2' }] });
    expect((await req(member.token, 'GET', `/v7/application(${fleetId})?$select=id`)).json().d).toEqual([{ id: fleetId }]);
  });
});
