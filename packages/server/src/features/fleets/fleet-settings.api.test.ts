import { FLEET_NAME_LENGTH_RULE } from '@flotilla/model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../infra/auth/api-keys.js';
import { buildTestApp, sdkClient, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';
import { createFleet, deviceTypeId, giveFleetRole, hex, insertDevice, insertRelease, requester, row } from '../../../test/support/fleet-helpers.js';

// Fleet settings page rules (spec 2 §2 settings, §5 Fleets): rename, legacy applications,
// public visibility, default device type, support access, transfer ownership, delete.
let t: TestApp;
let apiUrl: string;
let req: ReturnType<typeof requester>;
let owner: SignedUpUser; // administrator of their personal organization and of `secondOrg`
let developer: SignedUpUser;
let secondOrg: number;
let legacyType: number;
let rpi3: number;

const fleetRow = (id: number) =>
  row<{
    app_name: string;
    slug: string;
    organization: number;
    is_public: boolean;
    is_stored_at__repository_url: string | null;
    is_for__device_type: number;
    is_accessible_by_support_until__date: Date | null;
  }>(
    t.db,
    `SELECT app_name, slug, organization, is_public, is_stored_at__repository_url, is_for__device_type, is_accessible_by_support_until__date
       FROM application WHERE id = $1`,
    [id],
  );

async function sdkAs(user: SignedUpUser) {
  const sdk = sdkClient(apiUrl);
  await sdk.auth.loginWithToken(user.token);
  return sdk;
}

/** A fleet of the owner's organization on which `developer` is a developer. */
async function sharedFleet(name: string, deviceType = 'raspberrypi3'): Promise<number> {
  const id = await createFleet(t.app, t.db, owner, name, deviceType);
  await giveFleetRole(t.db, owner.orgId, id, developer, 'developer');
  return id;
}

async function legacyFleet(name: string): Promise<number> {
  const id = await sharedFleet(name);
  await t.db.query('UPDATE application SET application_type = $1 WHERE id = $2', [legacyType, id]);
  return id;
}

beforeAll(async () => {
  t = await buildTestApp();
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  req = requester(t.app);
  [owner, developer] = await Promise.all([signUp(t.app), signUp(t.app)]);
  const org = await req(owner.token, 'POST', '/v7/organization', { name: `Second ${hex(3)}` });
  expect(org.statusCode, org.body).toBe(201);
  secondOrg = org.json().id;
  legacyType = (await row<{ id: number }>(t.db, `INSERT INTO application_type (slug, name, is_legacy) VALUES ('starter-legacy', 'Starter (legacy)', true) RETURNING id`))!.id;
  rpi3 = await deviceTypeId(t.db, 'raspberrypi3');
});
afterAll(async () => {
  await t?.close();
});

describe('rename', () => {
  it('renames through balena-sdk and moves the slug along; an invalid name changes nothing', async () => {
    const id = await sharedFleet('RenameMe');
    await (await sdkAs(developer)).models.application.rename(id, 'Renamed_Fleet');
    expect(await fleetRow(id)).toMatchObject({ app_name: 'Renamed_Fleet', slug: `${owner.username}/renamed_fleet` });
    const res = await req(developer.token, 'PATCH', `/v7/application(${id})`, { app_name: 'ab' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toBe(FLEET_NAME_LENGTH_RULE);
    expect((await fleetRow(id))!.app_name).toBe('Renamed_Fleet');
  });

  it('refuses to rename a classic or legacy application', async () => {
    const id = await legacyFleet('LegacyName');
    const res = await req(owner.token, 'PATCH', `/v7/application(${id})`, { app_name: 'LegacyRenamed' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toBe('cannot rename classic and legacy applications');
    await expect((await sdkAs(developer)).models.application.rename(id, 'LegacyRenamed')).rejects.toThrow(/cannot rename classic and legacy applications/);
    expect((await fleetRow(id))!.app_name).toBe('LegacyName');
    // Other settings of a legacy application still change.
    expect((await req(owner.token, 'PATCH', `/v7/application(${id})`, { should_track_latest_release: false })).statusCode).toBe(200);
  });
});

describe('public visibility', () => {
  it('refuses to make a legacy-type application public without a repository URL', async () => {
    const id = await legacyFleet('LegacyPublic');
    for (const body of [{ is_public: true }, { is_public: true, is_stored_at__repository_url: '  ' }]) {
      const res = await req(developer.token, 'PATCH', `/v7/application(${id})`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toBe('must first enter repo url');
    }
    expect(await fleetRow(id)).toMatchObject({ is_public: false, is_stored_at__repository_url: null });
  });

  it('makes it public with a repository URL, and then keeps the URL', async () => {
    const id = await legacyFleet('LegacyWithRepo');
    const res = await req(developer.token, 'PATCH', `/v7/application(${id})`, { is_public: true, is_stored_at__repository_url: 'https://github.com/acme/app' });
    expect(res.statusCode, res.body).toBe(200);
    const cleared = await req(developer.token, 'PATCH', `/v7/application(${id})`, { is_stored_at__repository_url: null });
    expect(cleared.statusCode).toBe(400);
    expect(cleared.json()).toBe('must first enter repo url');
    expect(await fleetRow(id)).toMatchObject({ is_public: true, is_stored_at__repository_url: 'https://github.com/acme/app' });
    expect((await req(developer.token, 'PATCH', `/v7/application(${id})`, { is_public: false, is_stored_at__repository_url: null })).statusCode).toBe(200);
  });

  it('makes a non-legacy fleet public without a repository URL', async () => {
    const id = await sharedFleet('PublicFleet');
    expect((await req(developer.token, 'PATCH', `/v7/application(${id})`, { is_public: true })).statusCode).toBe(200);
    expect((await fleetRow(id))!.is_public).toBe(true);
  });
});

describe('default device type', () => {
  it('changes to a type of the same CPU architecture', async () => {
    const id = await sharedFleet('TypeSameArch');
    const bbb = await deviceTypeId(t.db, 'beaglebone-black');
    expect((await req(developer.token, 'PATCH', `/v7/application(${id})`, { is_for__device_type: bbb })).statusCode).toBe(200);
    expect((await fleetRow(id))!.is_for__device_type).toBe(bbb);
  });

  it('refuses a discontinued type of the same CPU architecture with the reason, changing nothing', async () => {
    const id = await sharedFleet('TypeDiscontinued');
    const res = await req(developer.token, 'PATCH', `/v7/application(${id})`, { is_for__device_type: await deviceTypeId(t.db, 'fincm3') });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toBe('The device type Balena Fin (CM3) is discontinued: it is unavailable for new fleets. Choose another device type.');
    expect((await fleetRow(id))!.is_for__device_type).toBe(rpi3);
  });

  it('refuses a type of another CPU architecture', async () => {
    const id = await sharedFleet('TypeOtherArch');
    for (const slug of ['raspberrypi4-64', 'intel-nuc']) {
      const res = await req(developer.token, 'PATCH', `/v7/application(${id})`, { is_for__device_type: await deviceTypeId(t.db, slug) });
      expect(res.statusCode, slug).toBe(400);
      expect(res.json()).toMatch(/fleets of different CPU architectures cannot be mixed/);
    }
    expect((await fleetRow(id))!.is_for__device_type).toBe(rpi3);
  });
});

describe('support access', () => {
  it('is granted and revoked through balena-sdk', async () => {
    const id = await sharedFleet('SupportFleet');
    const sdk = await sdkAs(developer);
    const until = Date.now() + 3_600_000;
    await sdk.models.application.grantSupportAccess(id, until);
    expect((await fleetRow(id))!.is_accessible_by_support_until__date).toEqual(new Date(until));
    await sdk.models.application.revokeSupportAccess(id);
    expect((await fleetRow(id))!.is_accessible_by_support_until__date).toBeNull();
  });

  it('refuses an expiry in the past, for fleets and devices', async () => {
    const id = await sharedFleet('SupportPast');
    const until = new Date(Date.now() + 86_400_000).toISOString();
    expect((await req(developer.token, 'PATCH', `/v7/application(${id})`, { is_accessible_by_support_until__date: until })).statusCode).toBe(200);
    const past = new Date(Date.now() - 60_000).toISOString();
    const res = await req(developer.token, 'PATCH', `/v7/application(${id})`, { is_accessible_by_support_until__date: past });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toBe('Support access can only be granted until a date in the future');
    expect((await fleetRow(id))!.is_accessible_by_support_until__date).toEqual(new Date(until));
    const device = await insertDevice(t.db, id, rpi3);
    expect((await req(developer.token, 'PATCH', `/v7/device(${device})`, { is_accessible_by_support_until__date: past })).statusCode).toBe(400);
    expect(await row(t.db, 'SELECT is_accessible_by_support_until__date AS d FROM device WHERE id = $1', [device])).toEqual({ d: null });
  });
});

describe('transfer ownership', () => {
  it('moves a fleet without devices to another organization the caller administers', async () => {
    const id = await createFleet(t.app, t.db, owner, 'TransferMe');
    const res = await req(owner.token, 'PATCH', `/v7/application(${id})`, { organization: secondOrg });
    expect(res.statusCode, res.body).toBe(200);
    const handle = (await row<{ handle: string }>(t.db, 'SELECT handle FROM organization WHERE id = $1', [secondOrg]))!.handle;
    expect(await fleetRow(id)).toMatchObject({ organization: secondOrg, slug: `${handle}/transferme` });
  });

  it('refuses the same organization, a fleet with devices and a name clash, changing nothing', async () => {
    const same = await createFleet(t.app, t.db, owner, 'TransferSame');
    const sameRes = await req(owner.token, 'PATCH', `/v7/application(${same})`, { organization: owner.orgId });
    expect(sameRes.statusCode).toBe(400);
    expect(sameRes.json()).toBe('The fleet already belongs to this organization: choose a different one');

    const withDevices = await createFleet(t.app, t.db, owner, 'TransferDevices');
    await insertDevice(t.db, withDevices, rpi3);
    const devRes = await req(owner.token, 'PATCH', `/v7/application(${withDevices})`, { organization: secondOrg });
    expect(devRes.statusCode).toBe(400);
    expect(devRes.json()).toBe('Fleets with devices cannot be transferred: move or delete the devices first');

    const existing = await createFleet(t.app, t.db, owner, 'clashing_NAME', 'raspberrypi3', secondOrg);
    const clash = await createFleet(t.app, t.db, owner, 'Clashing_name');
    const clashRes = await req(owner.token, 'PATCH', `/v7/application(${clash})`, { organization: secondOrg });
    expect(clashRes.statusCode).toBe(409);
    expect(clashRes.json()).toBe('A fleet with this name already exists in the target organization');
    await t.db.query(`UPDATE application SET is_of__class = 'block' WHERE id = $1`, [existing]);
    const blockRes = await req(owner.token, 'PATCH', `/v7/application(${clash})`, { organization: secondOrg });
    expect(blockRes.statusCode).toBe(409);
    expect(blockRes.json()).toBe('A block with this name already exists in the target organization');

    for (const id of [same, withDevices, clash]) expect((await fleetRow(id))!.organization).toBe(owner.orgId);
  });

  it('needs administrator rights in both organizations (a fleet developer cannot transfer)', async () => {
    const id = await sharedFleet('TransferByDeveloper');
    const devOrg = developer.orgId;
    expect((await req(developer.token, 'PATCH', `/v7/application(${id})`, { organization: devOrg })).statusCode).toBe(401);
    expect((await fleetRow(id))!.organization).toBe(owner.orgId);
  });
});

describe('application type (upgrade type)', () => {
  it('only a fleet administrator changes it; a developer is refused and nothing changes', async () => {
    const id = await legacyFleet('ChangeTypeFleet');
    const modern = (await row<{ id: number }>(t.db, `SELECT id FROM application_type WHERE NOT is_legacy ORDER BY id LIMIT 1`))!.id;
    const refused = await req(developer.token, 'PATCH', `/v7/application(${id})`, { application_type: modern });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toBe("You don't have the required permission for this action");
    expect((await row<{ application_type: number }>(t.db, 'SELECT application_type FROM application WHERE id = $1', [id]))!.application_type).toBe(legacyType);
    // The developer still updates other settings.
    expect((await req(developer.token, 'PATCH', `/v7/application(${id})`, { is_stored_at__repository_url: 'https://example.com/r' })).statusCode).toBe(200);
    const ok = await req(owner.token, 'PATCH', `/v7/application(${id})`, { application_type: modern });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await row<{ application_type: number }>(t.db, 'SELECT application_type FROM application WHERE id = $1', [id]))!.application_type).toBe(modern);
  });
});

describe('delete', () => {
  it('deletes a fleet with its devices, releases (pinned and running), tags and provisioning keys', async () => {
    const id = await createFleet(t.app, t.db, owner, 'DeleteMe');
    const fleetActor = (await row<{ actor: number }>(t.db, 'SELECT actor FROM application WHERE id = $1', [id]))!.actor;
    const release = await insertRelease(t.db, id);
    await t.db.query('UPDATE application SET should_be_running__release = $1, should_track_latest_release = false WHERE id = $2', [release, id]);
    const device = await insertDevice(t.db, id, rpi3, { is_pinned_on__release: release, is_running__release: release });
    const deviceActor = (await row<{ actor: number }>(t.db, 'SELECT actor FROM device WHERE id = $1', [device]))!.actor;
    await t.db.query(`INSERT INTO application_tag (application, tag_key, value) VALUES ($1, 'site', 'north')`, [id]);
    const key = await req(owner.token, 'POST', '/api-key/v2/', { actorType: 'application', actorTypeId: id, roles: ['provisioning-api-key'] });
    expect(key.statusCode).toBe(200);

    // A developer may not delete it: nothing happens.
    await giveFleetRole(t.db, owner.orgId, id, developer, 'developer');
    await (await sdkAs(developer)).models.application.remove(id);
    expect(await fleetRow(id)).toBeDefined();

    await (await sdkAs(owner)).models.application.remove(id);
    expect(await fleetRow(id)).toBeUndefined();
    expect(await row(t.db, 'SELECT id FROM device WHERE id = $1', [device])).toBeUndefined();
    expect(await row(t.db, 'SELECT id FROM release WHERE id = $1', [release])).toBeUndefined();
    expect(await row(t.db, 'SELECT id FROM application_tag WHERE application = $1', [id])).toBeUndefined();
    expect(await row(t.db, 'SELECT id FROM api_key WHERE key = $1', [hashApiKey(key.json())])).toBeUndefined();
    expect(await row(t.db, 'SELECT id FROM actor WHERE id = ANY($1::int[])', [[fleetActor, deviceActor]])).toBeUndefined();
  });
});
