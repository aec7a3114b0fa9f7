import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asRoot, odataRead } from '../../infra/odata/index.js';
import { buildTestApp, sdkClient, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';
import { createFleet, deviceTypeId, giveFleetRole, hex, insertDevice, insertRelease, requester, row } from '../../../test/support/fleet-helpers.js';

// Device core (spec 2 §3, §5 Devices, §6 table rights): creation by fleet operators, uuid
// and name rules, architecture, pins, moves, and two-tenant isolation.
let t: TestApp;
let apiUrl: string;
let req: ReturnType<typeof requester>;
let owner: SignedUpUser; // administrator of org A
let operator: SignedUpUser; // operator on fleetA and fleetA2
let observer: SignedUpUser; // observer on fleetA
let outsider: SignedUpUser; // tenant B
let fleetA: number; // raspberrypi3 (armv7hf)
let fleetA2: number; // beaglebone-black (armv7hf): operator
let fleetA3: number; // raspberrypi3: the operator is only an observer here
let fleetA64: number; // raspberrypi4-64 (aarch64): operator
let fleetB: number;
let rpi3: number;
let rpi4: number;
let fin: number;

beforeAll(async () => {
  t = await buildTestApp();
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  req = requester(t.app);
  [owner, operator, observer, outsider] = await Promise.all([signUp(t.app), signUp(t.app), signUp(t.app), signUp(t.app)]);
  fleetA = await createFleet(t.app, t.db, owner, 'DeviceFleetA');
  fleetA2 = await createFleet(t.app, t.db, owner, 'DeviceFleetA2', 'beaglebone-black');
  fleetA3 = await createFleet(t.app, t.db, owner, 'DeviceFleetA3');
  fleetA64 = await createFleet(t.app, t.db, owner, 'DeviceFleetA64', 'raspberrypi4-64');
  fleetB = await createFleet(t.app, t.db, outsider, 'DeviceFleetB');
  for (const f of [fleetA, fleetA2, fleetA64]) await giveFleetRole(t.db, owner.orgId, f, operator, 'operator');
  await giveFleetRole(t.db, owner.orgId, fleetA3, operator, 'observer');
  await giveFleetRole(t.db, owner.orgId, fleetA, observer, 'observer');
  [rpi3, rpi4, fin] = await Promise.all([deviceTypeId(t.db, 'raspberrypi3'), deviceTypeId(t.db, 'raspberrypi4-64'), deviceTypeId(t.db, 'fincm3')]);
});
afterAll(async () => {
  await t?.close();
});

const deviceCount = async (fleet: number) => Number((await row<{ n: string }>(t.db, 'SELECT count(*) AS n FROM device WHERE belongs_to__application = $1', [fleet]))!.n);
const deviceRow = (id: number) =>
  row<{ device_name: string; note: string | null; belongs_to__application: number; is_pinned_on__release: number | null; is_of__device_type: number; actor: number }>(
    t.db,
    'SELECT device_name, note, belongs_to__application, is_pinned_on__release, is_of__device_type, actor FROM device WHERE id = $1',
    [id],
  );

describe('creating a device', () => {
  it('lets a fleet operator create a device, with its own actor and a readable default name', async () => {
    const uuid = hex();
    const res = await req(operator.token, 'POST', '/v7/device', { uuid, belongs_to__application: fleetA, is_of__device_type: rpi3 });
    expect(res.statusCode, res.body).toBe(201);
    const device = res.json();
    expect(device.uuid).toBe(uuid);
    expect(device.device_name).toMatch(/^[a-z]+-[a-z]+$/);
    expect(device.belongs_to__application).toEqual({ __id: fleetA });
    const actor = device.actor.__id as number;
    expect(await row(t.db, 'SELECT id FROM actor WHERE id = $1', [actor])).toEqual({ id: actor });
    // The actor is the device's alone (no user or fleet uses it) and navigates back to it.
    expect(await row(t.db, 'SELECT 1 AS x FROM "user" WHERE actor = $1 UNION ALL SELECT 1 FROM application WHERE actor = $1', [actor])).toBeUndefined();
    const back = await odataRead(t.db, asRoot({ actorId: null, permissions: [] }), `/actor(${actor})?$select=id&$expand=is_of__device($select=id)`);
    expect(back).toEqual([{ id: actor, is_of__device: [{ id: device.id }] }]);
  });

  it('keeps a given name and accepts a 62-character uuid', async () => {
    const uuid = hex(31);
    const res = await req(owner.token, 'POST', '/v7/device', { uuid, device_name: 'kitchen-pi', belongs_to__application: fleetA, is_of__device_type: fin });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ uuid, device_name: 'kitchen-pi' });
  });

  it('rejects a uuid that is not 32 or 62 lowercase hexadecimal characters, writing nothing', async () => {
    const before = await deviceCount(fleetA);
    for (const uuid of [hex().toUpperCase(), hex().slice(1), `${hex().slice(2)}zz`, hex(20)]) {
      const res = await req(operator.token, 'POST', '/v7/device', { uuid, belongs_to__application: fleetA, is_of__device_type: rpi3 });
      expect(res.statusCode, uuid).toBe(400);
      expect(res.json()).toBe('uuid must be 32 or 62 lowercase hexadecimal characters');
    }
    expect(await deviceCount(fleetA)).toBe(before);
  });

  it('rejects a device type whose CPU architecture cannot run the fleet default (balena: armv7hf devices not in aarch64 fleets)', async () => {
    const before = await deviceCount(fleetA64);
    const res = await req(operator.token, 'POST', '/v7/device', { uuid: hex(), belongs_to__application: fleetA64, is_of__device_type: rpi3 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toBe('Incompatible device type: raspberrypi3');
    expect(await deviceCount(fleetA64)).toBe(before);
    // The other way round is fine: an aarch64 device runs an armv7hf fleet's containers.
    const ok = await req(operator.token, 'POST', '/v7/device', { uuid: hex(), belongs_to__application: fleetA, is_of__device_type: rpi4 });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('refuses observers, outsiders and anonymous callers (401), writing nothing', async () => {
    const before = await deviceCount(fleetA);
    for (const token of [observer.token, outsider.token, null]) {
      const res = await req(token, 'POST', '/v7/device', { uuid: hex(), belongs_to__application: fleetA, is_of__device_type: rpi3 });
      expect(res.statusCode).toBe(401);
    }
    expect(await deviceCount(fleetA)).toBe(before);
  });

  it('pins on create only to a successful release of the fleet', async () => {
    const good = await insertRelease(t.db, fleetA);
    const failed = await insertRelease(t.db, fleetA, 'failed');
    const foreign = await insertRelease(t.db, fleetA2);
    const ok = await req(operator.token, 'POST', '/v7/device', { uuid: hex(), belongs_to__application: fleetA, is_of__device_type: rpi3, is_pinned_on__release: good });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().is_pinned_on__release).toEqual({ __id: good });
    const before = await deviceCount(fleetA);
    for (const release of [failed, foreign]) {
      const res = await req(operator.token, 'POST', '/v7/device', { uuid: hex(), belongs_to__application: fleetA, is_of__device_type: rpi3, is_pinned_on__release: release });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toBe('A device can only be pinned to a successful release of its own fleet');
    }
    expect(await deviceCount(fleetA)).toBe(before);
  });
});

describe('changing a device', () => {
  it('lets an operator rename, note, pin and unpin; not an observer', async () => {
    const id = await insertDevice(t.db, fleetA, rpi3);
    const release = await insertRelease(t.db, fleetA);
    for (const body of [{ device_name: 'renamed' }, { note: 'in the shed' }, { is_pinned_on__release: release }]) {
      expect((await req(operator.token, 'PATCH', `/v7/device(${id})`, body)).statusCode).toBe(200);
    }
    expect(await deviceRow(id)).toMatchObject({ device_name: 'renamed', note: 'in the shed', is_pinned_on__release: release });
    const res = await req(observer.token, 'PATCH', `/v7/device(${id})`, { device_name: 'observer-was-here', is_pinned_on__release: null });
    expect(res.statusCode).toBe(200); // the observer's update rule matches no row
    expect(await deviceRow(id)).toMatchObject({ device_name: 'renamed', is_pinned_on__release: release });
    expect((await req(operator.token, 'PATCH', `/v7/device(${id})`, { is_pinned_on__release: null })).statusCode).toBe(200);
    expect((await deviceRow(id))!.is_pinned_on__release).toBeNull();
  });

  it('refuses a blank name and a pin to a release that is not a successful one of the fleet', async () => {
    const id = await insertDevice(t.db, fleetA, rpi3);
    const before = await deviceRow(id);
    const blank = await req(operator.token, 'PATCH', `/v7/device(${id})`, { device_name: '  ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toBe('device_name cannot be empty');
    for (const release of [await insertRelease(t.db, fleetA, 'running'), await insertRelease(t.db, fleetA2)]) {
      const res = await req(operator.token, 'PATCH', `/v7/device(${id})`, { is_pinned_on__release: release });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toBe('A device can only be pinned to a successful release of its own fleet');
    }
    expect(await deviceRow(id)).toEqual(before);
  });

  it('moves a device between fleets the operator operates, dropping a pin to the old fleet', async () => {
    const pin = await insertRelease(t.db, fleetA);
    const id = await insertDevice(t.db, fleetA, rpi3, { is_pinned_on__release: pin });
    const res = await req(operator.token, 'PATCH', `/v7/device(${id})`, { belongs_to__application: fleetA2 });
    expect(res.statusCode, res.body).toBe(200);
    expect(await deviceRow(id)).toMatchObject({ belongs_to__application: fleetA2, is_pinned_on__release: null });
  });

  it('keeps a pin given together with the move when it is a release of the new fleet', async () => {
    const id = await insertDevice(t.db, fleetA, rpi3, { is_pinned_on__release: await insertRelease(t.db, fleetA) });
    const newPin = await insertRelease(t.db, fleetA2);
    expect((await req(operator.token, 'PATCH', `/v7/device(${id})`, { belongs_to__application: fleetA2, is_pinned_on__release: newPin })).statusCode).toBe(200);
    expect(await deviceRow(id)).toMatchObject({ belongs_to__application: fleetA2, is_pinned_on__release: newPin });
  });

  it('refuses a move into a fleet where the caller is not an operator (401), changing nothing', async () => {
    const pin = await insertRelease(t.db, fleetA);
    const id = await insertDevice(t.db, fleetA, rpi3, { is_pinned_on__release: pin });
    const before = await deviceRow(id);
    for (const target of [fleetA3, fleetB]) {
      expect((await req(operator.token, 'PATCH', `/v7/device(${id})`, { belongs_to__application: target })).statusCode).toBe(401);
    }
    expect(await deviceRow(id)).toEqual(before);
  });

  it('refuses a move into a fleet of an architecture the device cannot run, changing nothing', async () => {
    const id = await insertDevice(t.db, fleetA, rpi3, { is_pinned_on__release: await insertRelease(t.db, fleetA) });
    const before = await deviceRow(id);
    const res = await req(operator.token, 'PATCH', `/v7/device(${id})`, { belongs_to__application: fleetA64 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toBe('Incompatible application: ' + (await row<{ slug: string }>(t.db, 'SELECT slug FROM application WHERE id = $1', [fleetA64]))!.slug);
    expect(await deviceRow(id)).toEqual(before);
  });

  it('deletes a device together with its actor', async () => {
    const id = await insertDevice(t.db, fleetA, rpi3);
    const { actor } = (await deviceRow(id))!;
    expect((await req(operator.token, 'DELETE', `/v7/device(${id})`)).statusCode).toBe(200);
    expect(await deviceRow(id)).toBeUndefined();
    expect(await row(t.db, 'SELECT id FROM actor WHERE id = $1', [actor])).toBeUndefined();
  });
});

describe('devices through balena-sdk', () => {
  it('renames, notes, pins and moves a device', async () => {
    const sdk = sdkClient(apiUrl);
    await sdk.auth.loginWithToken(operator.token);
    const id = await insertDevice(t.db, fleetA, rpi3);
    const { uuid } = (await row<{ uuid: string }>(t.db, 'SELECT uuid FROM device WHERE id = $1', [id]))!;
    const commit = hex();
    const release = await insertRelease(t.db, fleetA, 'success', commit);
    await sdk.models.device.rename(uuid, 'sdk-renamed');
    await sdk.models.device.setNote(uuid, 'noted by the sdk');
    await sdk.models.device.pinToRelease(uuid, commit);
    expect(await deviceRow(id)).toMatchObject({ device_name: 'sdk-renamed', note: 'noted by the sdk', is_pinned_on__release: release });
    await sdk.models.device.move(uuid, fleetA2);
    expect(await deviceRow(id)).toMatchObject({ belongs_to__application: fleetA2, is_pinned_on__release: null });
    const got = await sdk.models.device.get(uuid, { $select: ['device_name'], $expand: { belongs_to__application: { $select: 'id' } } });
    expect(got).toMatchObject({ device_name: 'sdk-renamed', belongs_to__application: [{ id: fleetA2 }] });
  });
});

describe('two tenants', () => {
  it('B cannot read, change, delete, create in or move into A’s fleet', async () => {
    const releaseA = await insertRelease(t.db, fleetA);
    const id = await insertDevice(t.db, fleetA, rpi3);
    const { uuid } = (await row<{ uuid: string }>(t.db, 'SELECT uuid FROM device WHERE id = $1', [id]))!;
    const before = await deviceRow(id);
    for (const url of [`/v7/device(${id})`, `/v7/device?$filter=uuid eq '${uuid}'`, `/v7/device(uuid='${uuid}')`, `/v7/device?$filter=belongs_to__application eq ${fleetA}`]) {
      expect((await req(outsider.token, 'GET', url)).json(), url).toEqual({ d: [] });
    }
    expect((await req(outsider.token, 'GET', '/v7/device/$count')).json()).toEqual({ d: 0 });
    expect((await req(outsider.token, 'GET', `/v7/release(${releaseA})?$expand=belongs_to__application`)).json()).toEqual({ d: [] });

    expect((await req(outsider.token, 'PATCH', `/v7/device(${id})`, { device_name: 'pwned', belongs_to__application: fleetB })).statusCode).toBe(200);
    expect((await req(outsider.token, 'DELETE', `/v7/device(${id})`)).statusCode).toBe(200);
    expect(await deviceRow(id)).toEqual(before);

    const countA = await deviceCount(fleetA);
    expect((await req(outsider.token, 'POST', '/v7/device', { uuid: hex(), belongs_to__application: fleetA, is_of__device_type: rpi3 })).statusCode).toBe(401);
    expect(await deviceCount(fleetA)).toBe(countA);

    const own = await insertDevice(t.db, fleetB, rpi3);
    const ownBefore = await deviceRow(own);
    expect((await req(outsider.token, 'PATCH', `/v7/device(${own})`, { belongs_to__application: fleetA })).statusCode).toBe(401);
    const pin = await req(outsider.token, 'PATCH', `/v7/device(${own})`, { is_pinned_on__release: releaseA });
    expect(pin.statusCode).toBe(401);
    expect(await deviceRow(own)).toEqual(ownBefore);
    expect(await deviceCount(fleetA)).toBe(countA);
  });
});
