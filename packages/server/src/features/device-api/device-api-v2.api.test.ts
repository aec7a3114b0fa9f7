import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';
import { createFleet, hex, requester, row } from '../../../test/support/fleet-helpers.js';
import { insertDevice, type TestDevice } from '../../../test/support/cloud-link.js';

// Dialect §4.2/§4.3: the legacy v2 target state and state report (older supervisors), and
// the supervisor and hostApp releases in the v3 target state.
let t: TestApp;
let req: ReturnType<typeof requester>;
let owner: SignedUpUser;
let fleet: number;
let otherFleet: number;

beforeAll(async () => {
  t = await buildTestApp();
  req = requester(t.app);
  owner = await signUp(t.app);
  fleet = await createFleet(t.app, t.db, owner, 'V2Fleet');
  otherFleet = await createFleet(t.app, t.db, owner, 'V2Other');
});
afterAll(async () => {
  await t?.close();
});

const get = (version: 'v2' | 'v3', key: string, uuid: string, etag?: string) =>
  t.app.inject({ method: 'GET', url: `/device/${version}/${uuid}/state`, headers: { authorization: `Bearer ${key}`, ...(etag ? { 'if-none-match': etag } : {}) } });
const patchV2 = (key: string, uuid: string, body: unknown) =>
  t.app.inject({ method: 'PATCH', url: `/device/v2/${uuid}/state`, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });

/** A successful release of `app` with the given services (name → composition environment and labels). */
async function insertRelease(app: number, services: Record<string, { environment?: Record<string, string>; labels?: Record<string, string> }>) {
  const commit = hex();
  const release = (
    await t.db.query<{ id: number }>(`INSERT INTO release (belongs_to__application, commit, status, composition) VALUES ($1, $2, 'success', $3) RETURNING id`, [
      app,
      commit,
      { services },
    ])
  ).rows[0]!.id;
  const ids: Record<string, { service: number; image: number; location: string }> = {};
  for (const name of Object.keys(services)) {
    const service =
      (await row<{ id: number }>(t.db, 'SELECT id FROM service WHERE application = $1 AND service_name = $2', [app, name]))?.id ??
      (await t.db.query<{ id: number }>('INSERT INTO service (application, service_name) VALUES ($1, $2) RETURNING id', [app, name])).rows[0]!.id;
    const location = `registry.test/v2/${hex(8)}@sha256:${hex(32)}`;
    const image = (
      await t.db.query<{ id: number }>(`INSERT INTO image (is_a_build_of__service, status, is_stored_at__image_location) VALUES ($1, 'success', $2) RETURNING id`, [service, location])
    ).rows[0]!.id;
    await t.db.query('INSERT INTO image__is_part_of__release (image, is_part_of__release) VALUES ($1, $2)', [image, release]);
    ids[name] = { service, image, location };
  }
  return { id: release, commit, ids };
}

/** Direct SQL bypasses the rules: announce the change as they would, then let the bus deliver it. */
async function changed(change: { deviceIds?: number[]; applicationIds?: number[] }) {
  await t.app.bus.publish('device-state:changed', change);
  await new Promise((r) => setImmediate(r));
}

async function deviceOnRelease(app = fleet): Promise<{ d: TestDevice; rel: Awaited<ReturnType<typeof insertRelease>> }> {
  const d = await insertDevice(t.db, app);
  const rel = await insertRelease(app, { main: { environment: { A: 'image' }, labels: { 'io.balena.features.x': '1' } }, side: {} });
  await t.db.query('UPDATE device SET is_pinned_on__release = $2 WHERE id = $1', [d.id, rel.id]);
  await changed({ deviceIds: [d.id] });
  return { d, rel };
}

describe('GET /device/v2/{uuid}/state', () => {
  it('sends the legacy shape: local name, config and the app by id with services by id', async () => {
    const { d, rel } = await deviceOnRelease();
    for (const [resource, body] of [
      ['application_environment_variable', { application: fleet, name: 'B', value: 'app' }],
      ['device_environment_variable', { device: d.id, name: 'C', value: 'device' }],
      ['device_config_variable', { device: d.id, name: 'BALENA_Y', value: 'device' }],
    ] as const) {
      const res = await req(owner.token, 'POST', `/v7/${resource}`, body);
      expect(res.statusCode, res.body).toBe(201);
    }
    const res = await get('v2', d.key, d.uuid);
    expect(res.statusCode, res.body).toBe(200);
    const name = (await row<{ device_name: string }>(t.db, 'SELECT device_name FROM device WHERE id = $1', [d.id]))!.device_name;
    const appName = (await row<{ app_name: string }>(t.db, 'SELECT app_name FROM application WHERE id = $1', [fleet]))!.app_name;
    expect(res.json()).toEqual({
      local: {
        name,
        config: { BALENA_Y: 'device' },
        apps: {
          [String(fleet)]: {
            name: appName,
            commit: rel.commit,
            releaseId: rel.id,
            services: {
              [String(rel.ids.main!.service)]: {
                imageId: rel.ids.main!.image,
                serviceName: 'main',
                image: rel.ids.main!.location,
                running: true,
                environment: { A: 'image', B: 'app', C: 'device' },
                labels: { 'io.balena.features.x': '1' },
              },
              [String(rel.ids.side!.service)]: {
                imageId: rel.ids.side!.image,
                serviceName: 'side',
                image: rel.ids.side!.location,
                running: true,
                environment: { B: 'app', C: 'device' },
                labels: {},
              },
            },
          },
        },
      },
      dependent: { apps: {}, devices: {} },
    });
  });

  it('has its own ETag: 304 while nothing changes, 200 after a change', async () => {
    const { d } = await deviceOnRelease();
    const first = await get('v2', d.key, d.uuid);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(etag).not.toBe((await get('v3', d.key, d.uuid)).headers.etag);
    expect((await get('v2', d.key, d.uuid, etag)).statusCode).toBe(304);
    const v = await req(owner.token, 'POST', '/v7/device_environment_variable', { device: d.id, name: 'NEW', value: '1' });
    expect(v.statusCode, v.body).toBe(201);
    const after = await get('v2', d.key, d.uuid, etag);
    expect(after.statusCode).toBe(200);
    expect(Object.values(after.json().local.apps[String(fleet)].services).map((s) => (s as { environment: Record<string, string> }).environment.NEW)).toEqual(['1', '1']);
  });

  it('sends an app without release when the device has no target', async () => {
    const d = await insertDevice(t.db, otherFleet);
    const res = await get('v2', d.key, d.uuid);
    expect(res.statusCode).toBe(200);
    expect(res.json().local.apps).toEqual({ [String(otherFleet)]: { name: expect.any(String), services: {} } });
  });

  it("answers 403 for another device's uuid and 401 without a device key or a user who may read the device", async () => {
    const a = await insertDevice(t.db, fleet);
    const b = await insertDevice(t.db, fleet);
    expect((await get('v2', a.key, b.uuid)).statusCode).toBe(403);
    // Issue 12: the owner reads it as balena-sdk's device.getSupervisorTargetState does; a stranger gets balena's 401.
    expect((await get('v2', owner.token, a.uuid)).statusCode).toBe(200);
    expect((await get('v2', (await signUp(t.app)).token, a.uuid)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: `/device/v2/${a.uuid}/state` })).statusCode).toBe(401);
  });
});

describe('PATCH /device/v2/{uuid}/state', () => {
  it('stores the device fields, the image installs of its fleet and the release it is on', async () => {
    const { d, rel } = await deviceOnRelease();
    const foreign = await insertRelease(otherFleet, { x: {} });
    const res = await patchV2(d.key, d.uuid, {
      local: {
        status: 'Idle',
        os_version: 'balenaOS 2.50.0',
        ip_address: '10.1.2.3',
        name: 'ignored',
        is_on__commit: rel.commit,
        apps: {
          [String(fleet)]: {
            services: {
              [String(rel.ids.main!.image)]: { releaseId: rel.id, status: 'Running', download_progress: null },
              [String(rel.ids.side!.image)]: { releaseId: rel.id, status: 'Downloading', download_progress: 42 },
              [String(foreign.ids.x!.image)]: { releaseId: foreign.id, status: 'Running' },
            },
          },
        },
      },
      dependent: { apps: {}, devices: {} },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toBe('');
    const dev = await row(t.db, 'SELECT status, os_version, ip_address, is_running__release, device_name FROM device WHERE id = $1', [d.id]);
    expect(dev).toMatchObject({ status: 'Idle', os_version: 'balenaOS 2.50.0', ip_address: '10.1.2.3', is_running__release: rel.id });
    expect((dev as { device_name: string }).device_name).not.toBe('ignored');
    const installs = (
      await t.db.query('SELECT installs__image AS image, status, download_progress, is_provided_by__release AS release FROM image_install WHERE device = $1 ORDER BY installs__image', [d.id])
    ).rows;
    expect(installs).toEqual(
      [
        { image: rel.ids.main!.image, status: 'Running', download_progress: null, release: rel.id },
        { image: rel.ids.side!.image, status: 'Downloading', download_progress: 42, release: rel.id },
      ].sort((a, b) => a.image - b.image),
    );
    const services = (await t.db.query<{ s: number }>('SELECT installs__service AS s FROM service_install WHERE device = $1 ORDER BY 1', [d.id])).rows.map((r) => r.s);
    expect(services).toEqual([rel.ids.main!.service, rel.ids.side!.service].sort((a, b) => a - b));
  });

  it('refuses another uuid, a body without an object, a bad value, and stores nothing then', async () => {
    const a = await insertDevice(t.db, fleet);
    const b = await insertDevice(t.db, fleet);
    expect((await patchV2(a.key, b.uuid, { local: { status: 'hijack' } })).statusCode).toBe(403);
    expect((await patchV2(a.key, a.uuid, [])).statusCode).toBe(400);
    expect((await patchV2(a.key, a.uuid, { local: 'x' })).statusCode).toBe(400);
    expect((await patchV2(a.key, a.uuid, { local: { status: 'bad', cpu_usage: 'lots' } })).statusCode).toBe(400);
    expect((await patchV2(owner.token, a.uuid, { local: { status: 'user' } })).statusCode).toBe(401);
    const statuses = (await t.db.query('SELECT status FROM device WHERE id = ANY($1::int[])', [[a.id, b.id]])).rows;
    expect(statuses).toEqual([{ status: null }, { status: null }]);
  });
});

describe('the supervisor and hostApp in the v3 target state', () => {
  it("lists the device's supervisor and hostApp releases with no variables, the hostApp's images in the root store", async () => {
    const { d } = await deviceOnRelease();
    const supervisorApp = await createFleet(t.app, t.db, owner, `supervisor-${hex(3)}`);
    const hostApp = await createFleet(t.app, t.db, owner, `hostapp-${hex(3)}`);
    await t.db.query(`UPDATE application SET is_of__class = 'app' WHERE id = $1`, [supervisorApp]);
    await t.db.query('UPDATE application SET is_host = true WHERE id = $1', [hostApp]);
    const sup = await insertRelease(supervisorApp, { 'balena-supervisor': { environment: { FROM_IMAGE: '1' } } });
    const host = await insertRelease(hostApp, { 'raspberrypi3': {} });
    // Variables of those apps, and of the device's own fleet, stay out of them.
    for (const app of [supervisorApp, fleet]) {
      const res = await req(owner.token, 'POST', '/v7/application_environment_variable', { application: app, name: `NOT_${app}`, value: 'x' });
      expect(res.statusCode, res.body).toBe(201);
    }
    await t.db.query('UPDATE device SET should_be_managed_by__release = $2, should_be_operated_by__release = $3 WHERE id = $1', [d.id, sup.id, host.id]);
    await changed({ deviceIds: [d.id] });

    const res = await get('v3', d.key, d.uuid);
    expect(res.statusCode).toBe(200);
    const apps = res.json()[d.uuid].apps;
    const uuidOf = async (id: number) => (await row<{ uuid: string }>(t.db, 'SELECT uuid FROM application WHERE id = $1', [id]))!.uuid;
    const [fleetUuid, supUuid, hostUuid] = await Promise.all([uuidOf(fleet), uuidOf(supervisorApp), uuidOf(hostApp)]);
    expect(Object.keys(apps).sort()).toEqual([fleetUuid, supUuid, hostUuid].sort());
    expect(apps[supUuid]).toEqual({
      id: supervisorApp,
      name: expect.any(String),
      class: 'app',
      releases: {
        [sup.commit]: {
          id: sup.id,
          services: {
            'balena-supervisor': {
              id: sup.ids['balena-supervisor']!.service,
              image_id: sup.ids['balena-supervisor']!.image,
              image: sup.ids['balena-supervisor']!.location,
              running: true,
              environment: { FROM_IMAGE: '1' },
              labels: {},
              composition: { environment: { FROM_IMAGE: '1' } },
            },
          },
        },
      },
    });
    expect(apps[hostUuid].is_host).toBe(true);
    expect(apps[hostUuid].releases[host.commit].services.raspberrypi3).toMatchObject({ environment: {}, labels: { 'io.balena.image.store': 'root' } });
    // The fleet's own app is unchanged by them.
    expect(Object.values(apps[fleetUuid].releases)).toHaveLength(1);
  });
});
