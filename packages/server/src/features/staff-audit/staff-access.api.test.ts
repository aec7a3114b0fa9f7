import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, sdkClient, signInStaff, signUp, addOrganizationMember, type SignedUpUser, type StaffUser, type TestApp } from '../../../test/harness.js';
import { createFleet, deviceTypeId, hex, insertDevice, insertRelease, requester } from '../../../test/support/fleet-helpers.js';
import { MAX_AUDITED_ORGANIZATIONS } from './staff-audit.repository.js';

// Issue 19 item 2: support access grants decide what support agents read (refused without
// one, 404 like a stranger, absent from lists and expands), and every staff read of customer
// data lands in the organization's audit trail, read by its administrators only.

let t: TestApp;
let apiUrl: string;
let req: ReturnType<typeof requester>;
let customer: SignedUpUser; // administrator of their personal organization
let member: SignedUpUser; // a plain member of the customer's organization
let otherAdmin: SignedUpUser; // administrator of another organization
let agent: StaffUser;
let admin: StaffUser;
let rpi3: number;

const future = () => new Date(Date.now() + 5 * 24 * 3600 * 1000).toISOString();

async function sdkAs(token: string) {
  const sdk = sdkClient(apiUrl);
  await sdk.auth.loginWithToken(token);
  return sdk;
}

const ids = (res: { json(): unknown }) => (res.json() as { d: { id: number }[] }).d.map((r) => r.id);

/** A fleet of the customer with one device, one release and one variable. */
async function customerFleet(name: string) {
  const fleet = await createFleet(t.app, t.db, customer, `${name}${hex(2)}`);
  const device = await insertDevice(t.db, fleet, rpi3);
  const release = await insertRelease(t.db, fleet);
  const v = await req(customer.token, 'POST', '/v7/application_environment_variable', { application: fleet, name: 'MODE', value: 'x' });
  expect(v.statusCode, v.body).toBe(201);
  const uuid = (await t.db.query<{ uuid: string }>('SELECT uuid FROM device WHERE id = $1', [device])).rows[0]!.uuid;
  return { fleet, device, release, uuid };
}

const auditRows = async (orgId: number) =>
  (
    await t.db.query<{ performed_by_username: string; performed_as_username: string; staff_role: string | null; route: string; resource: string; request: string; request_id: string }>(
      'SELECT * FROM audit_event WHERE organization = $1 ORDER BY id',
      [orgId],
    )
  ).rows;

beforeAll(async () => {
  t = await buildTestApp();
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  req = requester(t.app);
  [customer, member, otherAdmin] = await Promise.all([signUp(t.app), signUp(t.app), signUp(t.app)]);
  await addOrganizationMember(t.db, member.userId, customer.orgId, 'member');
  agent = await signInStaff(t.app, t.db, 'support_agent');
  admin = await signInStaff(t.app, t.db, 'administrator');
  rpi3 = await deviceTypeId(t.db, 'raspberrypi3');
});
afterAll(async () => {
  await t?.close();
});

describe('support agents without a grant', () => {
  it('are refused the fleet, its devices, releases and variables, in lists, expands and counts', async () => {
    const { fleet, device, release, uuid } = await customerFleet('Closed');
    const sdk = await sdkAs(agent.token);
    await expect(sdk.models.application.get(fleet)).rejects.toMatchObject({ code: 'BalenaApplicationNotFound' });
    await expect(sdk.models.device.get(uuid)).rejects.toMatchObject({ code: 'BalenaDeviceNotFound' });
    expect(ids(await req(agent.token, 'GET', `/v7/application?$select=id&$filter=organization eq ${customer.orgId}`))).toEqual([]);
    expect(ids(await req(agent.token, 'GET', `/v7/device?$select=id&$filter=id eq ${device}`))).toEqual([]);
    expect(ids(await req(agent.token, 'GET', `/v7/release(${release})?$select=id`))).toEqual([]);
    expect((await req(agent.token, 'GET', `/v7/application_environment_variable/$count?$filter=application eq ${fleet}`)).json()).toEqual({ d: 0 });
    // The organization stays readable (support answers tickets), its fleets do not.
    const org = await req(agent.token, 'GET', `/v7/organization(${customer.orgId})?$select=id&$expand=application($select=id)`);
    expect(org.json()).toEqual({ d: [{ id: customer.orgId, application: [] }] });
    const counted = await req(agent.token, 'GET', `/v7/organization(${customer.orgId})?$select=id&$expand=application/$count`);
    expect(counted.json()).toEqual({ d: [{ id: customer.orgId, application: 0 }] });
    // Custom routes that check read permission: the logs.
    expect((await t.app.inject({ method: 'GET', url: `/device/v2/${uuid}/logs`, headers: bearer(agent.token) })).statusCode).toBe(404);
    // And no writes, with or without a grant.
    await req(agent.token, 'PATCH', `/v7/application(${fleet})`, { app_name: 'Renamed' });
    expect((await t.db.query('SELECT 1 FROM application WHERE id = $1 AND app_name = $2', [fleet, 'Renamed'])).rowCount).toBe(0);
  });
});

describe('support agents under a grant', () => {
  it('read a granted fleet, its devices, releases, variables and logs until the expiry', async () => {
    const { fleet, device, release, uuid } = await customerFleet('Granted');
    await (await sdkAs(customer.token)).models.application.grantSupportAccess(fleet, Date.now() + 3600_000);
    const sdk = await sdkAs(agent.token);
    expect((await sdk.models.application.get(fleet, { $select: 'id' })).id).toBe(fleet);
    expect((await sdk.models.device.getAllByApplication(fleet, { $select: 'id' })).map((d) => d.id)).toEqual([device]);
    expect((await sdk.models.release.getAllByApplication(fleet, { $select: 'id' })).map((r) => r.id)).toEqual([release]);
    expect((await sdk.models.application.envVar.getAllByApplication(fleet)).map((v) => v.name)).toEqual(['MODE']);
    const expanded = await req(agent.token, 'GET', `/v7/organization(${customer.orgId})?$select=id&$expand=application($select=id;$filter=id eq ${fleet})`);
    expect(expanded.json().d[0].application).toEqual([{ id: fleet }]);
    expect((await t.app.inject({ method: 'GET', url: `/device/v2/${uuid}/logs`, headers: bearer(agent.token) })).statusCode).toBe(200);
    const sameUrl = `/v7/device?$select=id&$filter=belongs_to__application eq ${fleet}`;
    expect(ids(await req(agent.token, 'GET', sameUrl))).toEqual([device]);
    // Still no writes under a grant.
    await req(agent.token, 'PATCH', `/v7/device(${device})`, { device_name: 'renamed' });
    expect((await t.db.query('SELECT 1 FROM device WHERE id = $1 AND device_name = $2', [device, 'renamed'])).rowCount).toBe(0);

    // The grant expires: the same reads are refused again (a past date written directly).
    await t.db.query(`UPDATE application SET is_accessible_by_support_until__date = now() - interval '1 minute' WHERE id = $1`, [fleet]);
    await expect(sdk.models.application.get(fleet)).rejects.toMatchObject({ code: 'BalenaApplicationNotFound' });
    // The very statement that answered before (cached) now answers nothing.
    expect(ids(await req(agent.token, 'GET', sameUrl))).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: `/device/v2/${uuid}/logs`, headers: bearer(agent.token) })).statusCode).toBe(404);
  });

  it('read a granted device, its fleet row and its own data, but not the fleet\'s other devices or releases', async () => {
    const { fleet, device, release, uuid } = await customerFleet('DeviceGrant');
    const other = await insertDevice(t.db, fleet, rpi3);
    await (await sdkAs(customer.token)).models.device.grantSupportAccess(uuid, Date.now() + 3600_000);
    const tag = await req(customer.token, 'POST', '/v7/device_tag', { device, tag_key: 'site', value: 'north' });
    expect(tag.statusCode, tag.body).toBe(201);
    const sdk = await sdkAs(agent.token);
    expect((await sdk.models.device.get(uuid, { $select: 'id' })).id).toBe(device);
    expect((await sdk.models.device.tags.getAllByDevice(uuid)).map((x) => x.tag_key)).toEqual(['site']);
    expect(ids(await req(agent.token, 'GET', `/v7/device?$select=id&$filter=belongs_to__application eq ${fleet}`))).toEqual([device]);
    expect(ids(await req(agent.token, 'GET', `/v7/device(${other})?$select=id`))).toEqual([]);
    expect(ids(await req(agent.token, 'GET', `/v7/application(${fleet})?$select=id`))).toEqual([fleet]);
    expect(ids(await req(agent.token, 'GET', `/v7/release(${release})?$select=id`))).toEqual([]);
    expect(ids(await req(agent.token, 'GET', `/v7/application_environment_variable?$select=id&$filter=application eq ${fleet}`))).toEqual([]);
  });
});

describe('the staff access audit trail', () => {
  it('records a support agent\'s read: who, what, which organization, the request id', async () => {
    const { fleet } = await customerFleet('Audited');
    await t.db.query(`UPDATE application SET is_accessible_by_support_until__date = $2 WHERE id = $1`, [fleet, future()]);
    await t.db.query('DELETE FROM audit_event WHERE organization = $1', [customer.orgId]);
    const res = await t.app.inject({ method: 'GET', url: `/v7/application(${fleet})?$select=id,app_name`, headers: { ...bearer(agent.token), 'x-request-id': 'req-audit-1' } });
    expect(res.statusCode).toBe(200);
    const rows = await auditRows(customer.orgId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      performed_by_username: agent.username,
      performed_as_username: agent.username,
      staff_role: 'support_agent',
      route: '/v7/application',
      resource: 'application',
      request: `/v7/application(${fleet})?$select=id,app_name`,
    });
    expect(rows[0]!.request_id).not.toBe('');
    // A refused read (no grant) reads nothing, and records nothing for this organization.
    await t.db.query(`UPDATE application SET is_accessible_by_support_until__date = NULL WHERE id = $1`, [fleet]);
    await req(agent.token, 'GET', `/v7/application(${fleet})?$select=id`);
    expect(await auditRows(customer.orgId)).toHaveLength(1);
  });

  it('records a platform administrator\'s reads, as themselves and logged in as a user, and the device routes', async () => {
    const { uuid } = await customerFleet('AdminRead');
    await t.db.query('DELETE FROM audit_event WHERE organization = $1', [customer.orgId]);
    expect((await req(admin.token, 'GET', `/v7/device(uuid='${uuid}')?$select=id`)).statusCode).toBe(200);
    const loginAs = await t.app.inject({ method: 'PATCH', url: '/login_', headers: bearer(admin.token), payload: { username: customer.username } });
    expect(loginAs.statusCode, loginAs.body).toBe(200);
    expect((await req(loginAs.body, 'GET', `/v7/application?$select=id&$filter=organization eq ${customer.orgId}`)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/device/v2/${uuid}/logs`, headers: bearer(admin.token) })).statusCode).toBe(200);
    const rows = await auditRows(customer.orgId);
    expect(rows.map((r) => [r.staff_role, r.performed_by_username, r.performed_as_username, r.route])).toEqual([
      ['administrator', admin.username, admin.username, '/v7/device'],
      ['administrator', admin.username, customer.username, '/v7/application'],
      ['administrator', admin.username, admin.username, '/device/v2/:uuid/logs'],
    ]);
    // The customer's own reads are not staff reads.
    await req(customer.token, 'GET', `/v7/device(uuid='${uuid}')?$select=id`);
    expect(await auditRows(customer.orgId)).toHaveLength(3);
  });

  it('leaves out the staff member\'s own organizations', async () => {
    await addOrganizationMember(t.db, admin.userId, otherAdmin.orgId, 'member');
    await t.db.query('DELETE FROM audit_event WHERE organization = $1', [otherAdmin.orgId]);
    expect((await req(admin.token, 'GET', `/v7/organization(${otherAdmin.orgId})?$select=id`)).statusCode).toBe(200);
    expect(await auditRows(otherAdmin.orgId)).toEqual([]);
    await t.db.query('DELETE FROM organization_membership WHERE "user" = $1 AND is_member_of__organization = $2', [admin.userId, otherAdmin.orgId]);
  });

  it('writes one row per request per organization, bounded', async () => {
    // A list over many organizations: one row each, in one request.
    const orgs = (await t.db.query<{ id: number }>('SELECT id FROM organization')).rows.map((r) => r.id);
    const before = (await t.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM audit_event')).rows[0]!.n;
    const res = await t.app.inject({ method: 'GET', url: '/v7/organization?$select=id&$top=10000', headers: { ...bearer(admin.token), 'x-request-id': 'bounded-1' } });
    expect(res.statusCode).toBe(200);
    const after = (await t.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM audit_event')).rows[0]!.n;
    const adminOwn = (await t.db.query('SELECT 1 FROM organization_membership WHERE "user" = $1', [admin.userId])).rowCount;
    expect(after - before).toBe(Math.min(orgs.length - adminOwn, MAX_AUDITED_ORGANIZATIONS));
    // Reading the same fleet's devices twice in one request ($expand) is still one row.
    const { fleet } = await customerFleet('OneRow');
    await insertDevice(t.db, fleet, rpi3);
    await t.db.query('DELETE FROM audit_event WHERE organization = $1', [customer.orgId]);
    await req(admin.token, 'GET', `/v7/device?$select=id&$filter=belongs_to__application eq ${fleet}&$expand=belongs_to__application($select=id)`);
    expect(await auditRows(customer.orgId)).toHaveLength(1);
  });

  it('is read by the organization\'s administrators only', async () => {
    await t.db.query(
      `INSERT INTO audit_event (organization, kind, performed_as_username, performed_by_username, staff_role, method, route, resource, request, request_id)
       VALUES ($1, 'staff_read', 'x', 'x', 'support_agent', 'GET', '/v7/device', 'device', '/v7/device', 'r')`,
      [customer.orgId],
    );
    const url = `/v7/audit_event?$select=id,performed_by_username&$filter=organization eq ${customer.orgId}&$orderby=created_at desc`;
    const sdk = await sdkAs(customer.token);
    // balena-sdk's pine types know balena's model, not this resource.
    const get = sdk.pine.get.bind(sdk.pine) as unknown as (p: object) => Promise<{ id: number; performed_by_username: string }[]>;
    const mine = await get({ resource: 'audit_event', options: { $select: ['id', 'performed_by_username'], $filter: { organization: customer.orgId } } });
    expect(mine.length).toBeGreaterThan(0);
    expect(ids(await req(member.token, 'GET', url))).toEqual([]);
    expect(ids(await req(otherAdmin.token, 'GET', url))).toEqual([]);
    expect(ids(await req(agent.token, 'GET', url))).toEqual([]);
    // Nobody writes it through the data API.
    expect((await req(customer.token, 'DELETE', `/v7/audit_event(${mine[0]!.id})`)).statusCode).toBe(401);
    expect((await req(admin.token, 'DELETE', `/v7/audit_event(${mine[0]!.id})`)).statusCode).toBe(401);
  });
});
