import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedReferenceData } from './seed.js';
import { bearer, buildTestApp, createTestDb, insertFleet, sdkClient, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';

/*
 * Issue 12, the device-type catalogue: the published balena-sdk used as a balena user uses it
 * against balenaCloud. Fleets for every balenaOS board (raspberry-pi included), CPU
 * architecture compatibility as balena defines it on register and move, and the catalogue's
 * slugs, names, aliases, states and install instructions.
 */
let t: TestApp;
let apiUrl: string;
let owner: SignedUpUser;
let sdk: ReturnType<typeof sdkClient>;

const idOf = async (table: string, slug: string) => (await t.db.query<{ id: number }>(`SELECT id FROM ${table} WHERE slug = $1`, [slug])).rows[0]!.id;
const fleetsNamed = async (name: string) => (await t.db.query('SELECT 1 FROM application WHERE app_name = $1', [name])).rowCount;
const deviceTypeOf = async (uuid: string) =>
  (await t.db.query<{ slug: string }>('SELECT dt.slug FROM device d JOIN device_type dt ON dt.id = d.is_of__device_type WHERE d.uuid = $1', [uuid])).rows[0]?.slug;
const fleetOf = async (uuid: string) => (await t.db.query<{ app: number }>('SELECT belongs_to__application AS app FROM device WHERE uuid = $1', [uuid])).rows[0]?.app;

async function fleet(name: string, deviceType: string): Promise<{ id: number; slug: string }> {
  const app = await sdk.models.application.create({ name, organization: owner.username, deviceType });
  return { id: app.id, slug: (await sdk.models.application.get(app.id, { $select: 'slug' })).slug };
}

/** `POST /device/register` as a device does it, with a provisioning key of the fleet. */
async function registerRaw(fleetId: number, deviceType: string): Promise<Response> {
  const key = await sdk.models.application.generateProvisioningKey({ slugOrUuidOrId: fleetId, keyExpiryDate: new Date(Date.now() + 600_000).toISOString() });
  return fetch(`${apiUrl}/device/register`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ application: fleetId, uuid: sdk.models.device.generateUniqueKey(), device_type: deviceType }),
  });
}

beforeAll(async () => {
  t = await buildTestApp();
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  owner = await signUp(t.app);
  sdk = sdkClient(apiUrl);
  await sdk.auth.loginWithToken(owner.token);
});
afterAll(() => t?.close());

describe('fleets for every balenaOS board', () => {
  it('creates a raspberry-pi fleet of the default application type through balena-sdk', async () => {
    const app = await sdk.models.application.create({ name: 'PiZeroFleet', organization: owner.username, deviceType: 'raspberry-pi' });
    const read = await sdk.models.application.get(app.id, { $select: 'id', $expand: { is_for__device_type: { $select: 'slug' }, application_type: { $select: 'slug' } } });
    expect(read.is_for__device_type[0]!.slug).toBe('raspberry-pi');
    expect(read.application_type[0]!.slug).toBe('microservices');
  });

  it('still refuses a type whose contract says single-container for a multi-container application type (a test-only contract)', async () => {
    await t.db.query(
      `INSERT INTO device_type (slug, name, is_of__cpu_architecture, contract)
       SELECT 'test-single-container', 'Test Single Container', id, $1::jsonb FROM cpu_architecture WHERE slug = 'rpi'`,
      [JSON.stringify({ slug: 'test-single-container', type: 'hw.device-type', data: { arch: 'rpi', state: 'released', multicontainer: false } })],
    );
    const single = await idOf('device_type', 'test-single-container');
    const post = (body: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/v7/application', headers: bearer(owner.token), payload: { organization: owner.orgId, is_for__device_type: single, ...body } });
    const refused = await post({ app_name: 'SingleMulti' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toBe('The device type Test Single Container is unavailable: it does not support multiple containers, and this fleet\'s type needs them.');
    expect(await fleetsNamed('SingleMulti')).toBe(0);
    const accepted = await post({ app_name: 'SingleEssentials', application_type: await idOf('application_type', 'essentials') });
    expect(accepted.statusCode, accepted.body).toBe(201);
  });
});

describe("CPU architecture compatibility, balena's rule", () => {
  let armv7: { id: number; slug: string };
  let aarch64: { id: number; slug: string };
  let rpi: { id: number; slug: string };
  beforeAll(async () => {
    armv7 = await fleet('ArchArmv7', 'raspberrypi3');
    aarch64 = await fleet('ArchAarch64', 'raspberrypi4-64');
    rpi = await fleet('ArchRpi', 'raspberry-pi');
  });

  it('registers an aarch64 device into an armv7hf fleet and an armv7hf device into an rpi fleet with device.register', async () => {
    const pi4 = sdk.models.device.generateUniqueKey();
    await sdk.models.device.register(armv7.slug, pi4, 'raspberrypi4-64');
    expect([await deviceTypeOf(pi4), await fleetOf(pi4)]).toEqual(['raspberrypi4-64', armv7.id]);
    const pi2 = sdk.models.device.generateUniqueKey();
    await sdk.models.device.register(rpi.id, pi2, 'raspberry-pi2');
    expect([await deviceTypeOf(pi2), await fleetOf(pi2)]).toEqual(['raspberry-pi2', rpi.id]);
  });

  it('moves an armv7hf device into an rpi fleet and an aarch64 device into an armv7hf fleet with device.move', async () => {
    const pi3 = sdk.models.device.generateUniqueKey();
    await sdk.models.device.register(armv7.id, pi3);
    await sdk.models.device.move(pi3, rpi.slug);
    expect(await fleetOf(pi3)).toBe(rpi.id);
    const pi4 = sdk.models.device.generateUniqueKey();
    await sdk.models.device.register(aarch64.id, pi4);
    await sdk.models.device.move(pi4, armv7.id);
    expect(await fleetOf(pi4)).toBe(armv7.id);
  });

  it("refuses an amd64 device in an aarch64 fleet, and an armv7hf one (balena's direction), with balena's message", async () => {
    const amd = await registerRaw(aarch64.id, 'intel-nuc');
    expect(amd.status).toBe(400);
    expect(await amd.json()).toBe('Incompatible device type: intel-nuc');
    const armv7InAarch64 = await registerRaw(aarch64.id, 'raspberrypi3');
    expect(armv7InAarch64.status).toBe(400);
    expect(await armv7InAarch64.json()).toBe('Incompatible device type: raspberrypi3');
    // balena-sdk itself refuses the same before sending anything.
    await expect(sdk.models.device.register(aarch64.id, sdk.models.device.generateUniqueKey(), 'intel-nuc')).rejects.toThrow('Incompatible device type: intel-nuc');
  });

  it("refuses moving a device into a fleet whose architecture it cannot run, with balena's message, changing nothing", async () => {
    const zero = sdk.models.device.generateUniqueKey();
    await sdk.models.device.register(rpi.id, zero);
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/v7/device(uuid='${zero}')`,
      headers: bearer(owner.token),
      payload: { belongs_to__application: armv7.id },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toBe(`Incompatible application: ${armv7.slug}`);
    expect(await fleetOf(zero)).toBe(rpi.id);
  });
});

describe('the device-type catalogue as balena names it', () => {
  it('has raspberry-pi2 as its own armv7hf type, and radxa-zero', async () => {
    const expand = { $select: ['slug', 'name'], $expand: { is_of__cpu_architecture: { $select: 'slug' } } } as const;
    const pi2 = await sdk.models.deviceType.get('raspberry-pi2', expand);
    expect(pi2).toMatchObject({ slug: 'raspberry-pi2', name: 'Raspberry Pi 2', is_of__cpu_architecture: [{ slug: 'armv7hf' }] });
    const radxa = await sdk.models.deviceType.get('radxa-zero', expand);
    expect(radxa).toMatchObject({ slug: 'radxa-zero', name: 'Radxa Zero', is_of__cpu_architecture: [{ slug: 'aarch64' }] });
    expect((await sdk.models.deviceType.get('raspberrypi3', { $select: 'name' })).name).toBe('Raspberry Pi 3');
  });

  it("resolves balena's aliases and names", async () => {
    expect((await sdk.models.deviceType.get('raspberrypi', { $select: 'slug' })).slug).toBe('raspberry-pi');
    expect((await sdk.models.deviceType.get('beaglebone', { $select: 'slug' })).slug).toBe('beaglebone-black');
    expect((await sdk.models.deviceType.get('nuc', { $select: 'slug' })).slug).toBe('intel-nuc');
    expect(await sdk.models.deviceType.getName('genericx86-64-ext')).toBe('Generic x86_64 (legacy MBR)');
    expect((await sdk.models.deviceType.getBySlugOrName('Raspberry Pi 2', { $select: 'slug' })).slug).toBe('raspberry-pi2');
    expect((await sdk.models.deviceType.getBySlugOrName('raspberry-pi2', { $select: 'name' })).name).toBe('Raspberry Pi 2');
    expect(await sdk.models.deviceType.getName('raspberry-pi')).toBe('Raspberry Pi (v1 / Zero / Zero W)');
    expect(await sdk.models.deviceType.getSlugByName('Radxa Zero')).toBe('radxa-zero');
  });

  it('answers getInstallMethod from the contract as balena does', async () => {
    const methods = await Promise.all(['raspberrypi3', 'intel-nuc', 'fincm3', 'generic-aarch64', 'jetson-nano'].map((s) => sdk.models.deviceType.getInstallMethod(s)));
    expect(methods).toEqual(['externalBoot', 'externalFlash', 'internalFlash', 'image', 'jetsonFlash']);
  });

  it('gives non-empty install instructions from the contract partials', async () => {
    const pi3 = await sdk.models.deviceType.getInstructions('raspberrypi3');
    expect(Array.isArray(pi3) && pi3.length).toBeGreaterThan(3);
    expect(pi3).toContain('Insert the freshly flashed SD card into the Raspberry Pi 3.');
    expect(pi3).toContain('Connect the Raspberry Pi 3 to power to boot the device.');
    const nuc = (await sdk.models.deviceType.getInstructions('intel-nuc')) as string[];
    expect(nuc).toContain('Insert the USB key to the host machine.');
    expect(nuc.join('\n')).toMatch(/Power on the Intel NUC to boot the device\./);
  });

  it('records which types are discontinued in the contract, readable through balena-sdk', async () => {
    const all = await sdk.models.deviceType.getAll({ $select: ['slug', 'contract'] });
    const state = new Map(all.map((d) => [d.slug, (d.contract as { data?: { state?: string } } | null)?.data?.state]));
    expect(state.get('fincm3')).toBe('discontinued');
    expect(state.get('raspberry-pi2')).toBe('released');
    expect(state.get('raspberry-pi')).toBe('released');
    await expect(sdk.models.application.create({ name: 'FinFleet', organization: owner.username, deviceType: 'fincm3' })).rejects.toThrow(/discontinued/);
  });
});

describe('supported device types, as balena-sdk reads them', () => {
  it('lists with getAllSupported the types that have a host OS release, which a discontinued type without one is not', async () => {
    // The platform's host-OS fleet of raspberry-pi2 (another organization's public is_host fleet), arranged with SQL.
    const platform = await signUp(t.app);
    const host = await insertFleet(t.db, platform, 'raspberry-pi2-os', { is_for__device_type: await idOf('device_type', 'raspberry-pi2'), is_host: true, is_public: true });
    await t.db.query(`INSERT INTO release (belongs_to__application, commit, status, composition) VALUES ($1, 'c0ffee', 'success', '{}')`, [host]);
    const supported = (await sdk.models.deviceType.getAllSupported({ $select: ['slug', 'name'] })).map((d) => d.slug);
    expect(supported).toContain('raspberry-pi2');
    expect(supported).not.toContain('fincm3');
  });
});

describe('an existing installation', () => {
  it("takes the new catalogue at its next start: raspberry-pi2, once an alias of the Pi 3, becomes balena's own type", async () => {
    const { db, drop } = await createTestDb();
    try {
      // The catalogue as it was: raspberry-pi2 an alias of raspberrypi3, no such type (nor its host OS fleets).
      await db.query(`DELETE FROM application WHERE is_for__device_type = (SELECT id FROM device_type WHERE slug = 'raspberry-pi2')`);
      await db.query(`DELETE FROM device_type_alias WHERE is_referenced_by__alias = 'raspberry-pi2'`);
      await db.query(`DELETE FROM device_type WHERE slug = 'raspberry-pi2'`);
      await db.query(
        `INSERT INTO device_type_alias (device_type, is_referenced_by__alias) SELECT id, 'raspberry-pi2' FROM device_type WHERE slug = 'raspberrypi3'`,
      );
      await seedReferenceData(db);
      const { rows } = await db.query<{ slug: string; name: string }>(
        `SELECT dt.slug, dt.name FROM device_type_alias x JOIN device_type dt ON dt.id = x.device_type WHERE x.is_referenced_by__alias = 'raspberry-pi2'`,
      );
      expect(rows).toEqual([{ slug: 'raspberry-pi2', name: 'Raspberry Pi 2' }]);
      // …and its host OS fleet comes with it.
      const host = await db.query(`SELECT 1 FROM application WHERE slug = 'balena_os/raspberry-pi2' AND is_host AND is_public`);
      expect(host.rowCount).toBe(1);
    } finally {
      await drop();
    }
  });
});
