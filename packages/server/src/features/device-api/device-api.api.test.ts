import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';
import { createFleet, hex, requester, row } from '../../../test/support/fleet-helpers.js';
import { ADJECTIVES, NOUNS } from '../devices/device-name.js';

// The device side of the API (issue 5 item 2, dialect §4): registration with a
// provisioning key, the key exchange, the v3 target state (ETag/304, cache invalidation),
// the heartbeat and the v3 state report; two tenants.
let t: TestApp;
let req: ReturnType<typeof requester>;
let owner: SignedUpUser;
let outsider: SignedUpUser;
let fleet: number;
let fleetUuid: string;
let fleetB: number;
let provKey: string;
let provKeyB: string;

beforeAll(async () => {
  t = await buildTestApp();
  req = requester(t.app);
  [owner, outsider] = await Promise.all([signUp(t.app), signUp(t.app)]);
  fleet = await createFleet(t.app, t.db, owner, 'DeviceApiFleet');
  fleetB = await createFleet(t.app, t.db, outsider, 'DeviceApiFleetB');
  fleetUuid = (await row<{ uuid: string }>(t.db, 'SELECT uuid FROM application WHERE id = $1', [fleet]))!.uuid;
  provKey = (await req(owner.token, 'POST', '/api-key/v2/', { actorType: 'application', actorTypeId: fleet, roles: ['provisioning-api-key'] })).json();
  provKeyB = (await req(outsider.token, 'POST', '/api-key/v2/', { actorType: 'application', actorTypeId: fleetB, roles: ['provisioning-api-key'] })).json();
});
afterAll(async () => {
  await t?.close();
});

const register = (key: string | null, body: Record<string, unknown>) => req(key, 'POST', '/device/register', body);
async function newDevice(app = fleet, key = provKey): Promise<{ id: number; uuid: string; api_key: string }> {
  const res = await register(key, { application: app, uuid: hex(), device_type: 'raspberrypi3' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
const poll = (key: string, uuid: string, etag?: string) =>
  t.app.inject({ method: 'GET', url: `/device/v3/${uuid}/state`, headers: { authorization: `Bearer ${key}`, ...(etag ? { 'if-none-match': etag } : {}) } });
const report = (key: string, body: object) => req(key, 'PATCH', '/device/v3/state', body);

/** A successful release of `app` with the given services (name → composition environment). */
async function insertRelease(app: number, services: Record<string, Record<string, string>>, commit = hex()) {
  const release = (
    await t.db.query<{ id: number }>(
      `INSERT INTO release (belongs_to__application, commit, status, composition) VALUES ($1, $2, 'success', $3) RETURNING id`,
      [app, commit, { services: Object.fromEntries(Object.entries(services).map(([n, env]) => [n, { environment: env }])) }],
    )
  ).rows[0]!.id;
  const ids: Record<string, { service: number; image: number }> = {};
  for (const name of Object.keys(services)) {
    const service =
      (await row<{ id: number }>(t.db, 'SELECT id FROM service WHERE application = $1 AND service_name = $2', [app, name]))?.id ??
      (await t.db.query<{ id: number }>('INSERT INTO service (application, service_name) VALUES ($1, $2) RETURNING id', [app, name])).rows[0]!.id;
    const image = (
      await t.db.query<{ id: number }>(
        `INSERT INTO image (is_a_build_of__service, status, is_stored_at__image_location) VALUES ($1, 'success', $2) RETURNING id`,
        [service, `registry.test/v2/${hex(8)}@sha256:${hex(32)}`],
      )
    ).rows[0]!.id;
    await t.db.query('INSERT INTO image__is_part_of__release (image, is_part_of__release) VALUES ($1, $2)', [image, release]);
    ids[name] = { service, image };
  }
  return { id: release, commit, ids };
}
const setFleetTarget = (app: number, release: number) =>
  t.db.query('UPDATE application SET should_be_running__release = $2, should_track_latest_release = false WHERE id = $1', [app, release]);

describe('registering a device', () => {
  it('answers 201 with id, uuid and the given api key, which then authenticates as the device', async () => {
    const uuid = hex();
    const apiKey = hex(16);
    const res = await register(provKey, { user: owner.userId, application: fleet, uuid, device_type: 'raspberrypi3', api_key: apiKey, os_version: 'balenaOS 5.0.0', supervisor_version: '16.0.0' });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toEqual({ id: expect.any(Number), uuid, api_key: apiKey });
    const stored = await row<{ belongs_to__application: number; os_version: string; supervisor_version: string }>(
      t.db,
      'SELECT belongs_to__application, os_version, supervisor_version FROM device WHERE id = $1',
      [body.id],
    );
    expect(stored).toEqual({ belongs_to__application: fleet, os_version: 'balenaOS 5.0.0', supervisor_version: '16.0.0' });
    // Stored hashed.
    expect(await row(t.db, 'SELECT 1 FROM api_key WHERE key = $1', [apiKey])).toBeUndefined();
    const own = await req(apiKey, 'GET', `/v7/device?$select=id,uuid`);
    expect(own.json().d).toEqual([{ id: body.id, uuid }]);
  });

  it('generates the device key when none is sent', async () => {
    const d = await newDevice();
    expect(d.api_key).toMatch(/^\S{16,}$/);
    expect((await poll(d.api_key, d.uuid)).statusCode).toBe(200);
  });

  it('names a device without a name with a word pair no other device of its fleet uses, numbered once every pair is taken', async () => {
    const crowded = await createFleet(t.app, t.db, owner, 'CrowdedNames');
    const key: string = (await req(owner.token, 'POST', '/api-key/v2/', { actorType: 'application', actorTypeId: crowded, roles: ['provisioning-api-key'] })).json();
    const pairs = ADJECTIVES.flatMap((a) => NOUNS.map((n) => `${a}-${n}`));
    const [free, ...taken] = pairs;
    // Every pair but one is already a device name in this fleet (another fleet's names do not count).
    await t.db.query(
      `WITH names AS (SELECT unnest($2::text[]) AS name), actors AS (INSERT INTO actor SELECT FROM names RETURNING id),
            numbered AS (SELECT name, row_number() OVER () AS n FROM names), numbered_actors AS (SELECT id, row_number() OVER () AS n FROM actors)
       INSERT INTO device (actor, uuid, device_name, belongs_to__application, is_of__device_type)
       SELECT a.id, md5(random()::text || n.name), n.name, $1, (SELECT is_for__device_type FROM application WHERE id = $1)
         FROM numbered n JOIN numbered_actors a USING (n)`,
      [crowded, taken],
    );
    const names = new Set(taken);
    for (let i = 0; i < 3; i++) {
      const d = await newDevice(crowded, key);
      const name = (await row<{ device_name: string }>(t.db, 'SELECT device_name FROM device WHERE id = $1', [d.id]))!.device_name;
      expect(names.has(name), `${name} is already used in the fleet`).toBe(false);
      expect(name === free || /^[a-z]+-[a-z]+-\d{4}$/.test(name), name).toBe(true);
      names.add(name);
    }
    // A name the user chose is kept, even when another device has it.
    const deviceType = (await row<{ type: number }>(t.db, 'SELECT is_for__device_type AS type FROM application WHERE id = $1', [crowded]))!.type;
    const named = await req(owner.token, 'POST', '/v7/device', { belongs_to__application: crowded, is_of__device_type: deviceType, uuid: hex(), device_name: taken[0] });
    expect(named.statusCode, named.body).toBe(201);
    expect(named.json().device_name).toBe(taken[0]);
  });

  it('answers 409 for a known uuid', async () => {
    const d = await newDevice();
    const res = await register(provKey, { application: fleet, uuid: d.uuid, device_type: 'raspberrypi3' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toBe('"uuid" must be unique.');
  });

  it('answers 401 without a provisioning key of that fleet', async () => {
    const body = { application: fleet, uuid: hex(), device_type: 'raspberrypi3' };
    expect((await register(null, body)).statusCode).toBe(401);
    expect((await register(provKeyB, body)).statusCode).toBe(401);
    expect((await register(owner.token, body)).statusCode).toBe(401);
    const device = await newDevice();
    expect((await register(device.api_key, body)).statusCode).toBe(401);
    expect((await register('not-a-key-at-all-123', body)).statusCode).toBe(401);
    expect(await row(t.db, 'SELECT 1 FROM device WHERE uuid = $1', [body.uuid])).toBeUndefined();
  });

  it('answers 400 for a device type the fleet cannot run', async () => {
    const uuid = hex();
    // An aarch64 device would run this armv7hf fleet (balena's rule, issue 12); an amd64 one not.
    const res = await register(provKey, { application: fleet, uuid, device_type: 'intel-nuc' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toBe('Incompatible device type: intel-nuc');
    expect((await register(provKey, { application: fleet, uuid, device_type: 'no-such-type' })).statusCode).toBe(400);
    expect(await row(t.db, 'SELECT 1 FROM device WHERE uuid = $1', [uuid])).toBeUndefined();
  });
});

describe('the key exchange', () => {
  it('gives a known device a new key with the provisioning key of its fleet', async () => {
    const d = await newDevice();
    const fresh = hex(20);
    const res = await req(provKey, 'POST', `/api-key/device/${d.id}/device-key`, { apiKey: fresh });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toBe(fresh);
    expect((await poll(fresh, d.uuid)).statusCode).toBe(200);
    const generated = await req(provKey, 'POST', `/api-key/device/${d.id}/device-key`, {});
    expect(generated.statusCode).toBe(200);
    expect((await poll(generated.json(), d.uuid)).statusCode).toBe(200);
  });

  it("refuses another fleet's provisioning key and keys held by someone else", async () => {
    const d = await newDevice();
    expect((await req(provKeyB, 'POST', `/api-key/device/${d.id}/device-key`, { apiKey: hex(20) })).statusCode).toBe(404);
    expect((await req(outsider.token, 'POST', `/api-key/device/${d.id}/device-key`, {})).statusCode).toBe(404);
    const other = await newDevice();
    expect((await req(provKey, 'POST', `/api-key/device/${d.id}/device-key`, { apiKey: other.api_key })).statusCode).toBe(409);
  });
});

describe('the target state', () => {
  it('lets a device read only its own state with its device key, and a user the state of a device they may read (issue 12)', async () => {
    const a = await newDevice();
    const b = await newDevice();
    expect((await poll(a.api_key, b.uuid)).statusCode).toBe(403);
    expect((await poll(provKey, a.uuid)).statusCode).toBe(401);
    // balena-sdk's device.getSupervisorTargetState: the owner reads it, another organization's user gets balena's 401.
    expect((await poll(owner.token, a.uuid)).statusCode).toBe(200);
    expect((await poll(outsider.token, a.uuid)).statusCode).toBe(401);
    const res = await t.app.inject({ method: 'GET', url: `/device/v3/${a.uuid}/state` });
    expect(res.statusCode).toBe(401);
  });

  it('answers a deleted device 304 (keep running what you have), v3 and v2, and a wrong key on a live device still 401', async () => {
    const gone = await newDevice();
    const live = await newDevice();
    const first = await poll(gone.api_key, gone.uuid);
    expect(first.statusCode).toBe(200);
    expect((await req(owner.token, 'DELETE', `/v7/device(${gone.id})`)).statusCode).toBe(200);
    // With or without the ETag it had, in both dialect versions; no state is sent.
    for (const etag of [String(first.headers.etag), undefined]) {
      const res = await poll(gone.api_key, gone.uuid, etag);
      expect(res.statusCode).toBe(304);
      expect(res.body).toBe('');
    }
    const v2 = await t.app.inject({ method: 'GET', url: `/device/v2/${gone.uuid}/state`, headers: { authorization: `Bearer ${gone.api_key}` } });
    expect(v2.statusCode).toBe(304);
    // The key itself is gone: nothing else accepts it.
    expect((await req(gone.api_key, 'GET', '/actor/v1/whoami')).statusCode).toBe(401);
    expect((await report(gone.api_key, { [gone.uuid]: { os_version: 'x' } })).statusCode).toBe(401);
    // A refused key on a device that exists, or on a uuid never seen, is still refused.
    expect((await poll(gone.api_key, live.uuid)).statusCode).toBe(401);
    expect((await poll('not-a-key-at-all-123', hex())).statusCode).toBe(401);
    // Without any credential there is nothing to tell: 401.
    expect((await t.app.inject({ method: 'GET', url: `/device/v3/${gone.uuid}/state` })).statusCode).toBe(401);
  });

  it('forgets the tombstone when the uuid registers again', async () => {
    const d = await newDevice();
    expect((await req(owner.token, 'DELETE', `/v7/device(${d.id})`)).statusCode).toBe(200);
    const again = await register(provKey, { application: fleet, uuid: d.uuid, device_type: 'raspberrypi3' });
    expect(again.statusCode, again.body).toBe(201);
    const fresh = again.json<{ api_key: string }>();
    expect((await poll(fresh.api_key, d.uuid)).statusCode).toBe(200);
    // The old key is refused like any wrong key, now that the uuid is a live device again.
    expect((await poll(d.api_key, d.uuid)).statusCode).toBe(401);
  });

  it('sends the name, config and the target release with merged environments', async () => {
    const fleet2 = await createFleet(t.app, t.db, owner, `StateFleet${hex(3)}`);
    const fleet2Uuid = (await row<{ uuid: string }>(t.db, 'SELECT uuid FROM application WHERE id = $1', [fleet2]))!.uuid;
    const key2 = (await req(owner.token, 'POST', '/api-key/v2/', { actorType: 'application', actorTypeId: fleet2, roles: ['provisioning-api-key'] })).json();
    const d = await newDevice(fleet2, key2);
    const rel = await insertRelease(fleet2, { main: { A: 'image', B: 'image', C: 'image' }, side: {} });
    await setFleetTarget(fleet2, rel.id);
    const post = async (resource: string, body: object) => {
      const res = await req(owner.token, 'POST', `/v7/${resource}`, body);
      expect(res.statusCode, res.body).toBe(201);
    };
    await post('application_environment_variable', { application: fleet2, name: 'B', value: 'app' });
    await post('application_environment_variable', { application: fleet2, name: 'C', value: 'app' });
    await post('service_environment_variable', { service: rel.ids.main!.service, name: 'C', value: 'service' });
    await post('device_environment_variable', { device: d.id, name: 'D', value: 'device' });
    await post('application_config_variable', { application: fleet2, name: 'BALENA_X', value: 'fleet' });
    await post('application_config_variable', { application: fleet2, name: 'BALENA_Y', value: 'fleet' });
    await post('device_config_variable', { device: d.id, name: 'BALENA_Y', value: 'device' });
    const res = await poll(d.api_key, d.uuid);
    expect(res.statusCode).toBe(200);
    const state = res.json()[d.uuid];
    const name = (await row<{ device_name: string }>(t.db, 'SELECT device_name FROM device WHERE id = $1', [d.id]))!.device_name;
    expect(state.name).toBe(name);
    expect(state.config).toEqual({ BALENA_X: 'fleet', BALENA_Y: 'device' });
    const app = state.apps[fleet2Uuid];
    expect(app).toMatchObject({ id: fleet2, name: expect.any(String), class: 'fleet' });
    const release = app.releases[rel.commit];
    expect(release.id).toBe(rel.id);
    expect(Object.keys(release.services).sort()).toEqual(['main', 'side']);
    expect(release.services.main).toMatchObject({ id: rel.ids.main!.service, image_id: rel.ids.main!.image, image: expect.stringMatching(/^registry\.test\/v2\//) });
    expect(release.services.main.environment).toEqual({ A: 'image', B: 'app', C: 'service', D: 'device' });
    expect(release.services.side.environment).toEqual({ B: 'app', C: 'app', D: 'device' });
  });

  it('has a strong ETag and answers 304 while nothing changes, 200 after a pin or a variable write', async () => {
    const d = await newDevice();
    const r1 = await insertRelease(fleet, { main: {} });
    const r2 = await insertRelease(fleet, { main: {} });
    await setFleetTarget(fleet, r1.id);
    // The direct SQL above bypassed the rules: announce it as they would.
    await t.app.bus.publish('device-state:changed', { applicationIds: [fleet] });
    await new Promise((r) => setImmediate(r));
    const first = await poll(d.api_key, d.uuid);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(Object.keys(first.json()[d.uuid].apps[fleetUuid].releases)).toEqual([r1.commit]);
    const again = await poll(d.api_key, d.uuid, etag);
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    const pin = await req(owner.token, 'PATCH', `/v7/device(${d.id})`, { is_pinned_on__release: r2.id });
    expect(pin.statusCode, pin.body).toBe(200);
    const afterPin = await poll(d.api_key, d.uuid, etag);
    expect(afterPin.statusCode).toBe(200);
    expect(Object.keys(afterPin.json()[d.uuid].apps[fleetUuid].releases)).toEqual([r2.commit]);
    const etag2 = afterPin.headers.etag as string;
    expect(etag2).not.toBe(etag);
    expect((await poll(d.api_key, d.uuid, etag2)).statusCode).toBe(304);

    const v = await req(owner.token, 'POST', '/v7/device_environment_variable', { device: d.id, name: 'NEW', value: '1' });
    expect(v.statusCode, v.body).toBe(201);
    const afterVar = await poll(d.api_key, d.uuid, etag2);
    expect(afterVar.statusCode).toBe(200);
    expect(afterVar.json()[d.uuid].apps[fleetUuid].releases[r2.commit].services.main.environment).toEqual({ NEW: '1' });
  });

  it('sends a large state compressed when the device asks, and its weakened ETag still gets 304', async () => {
    const d = await newDevice();
    const env = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`SETTING_${i}`, `value-${i}-${'x'.repeat(40)}`]));
    const rel = await insertRelease(fleet, { main: env, side: env });
    await t.db.query('UPDATE device SET is_pinned_on__release = $2 WHERE id = $1', [d.id, rel.id]);
    await t.app.bus.publish('device-state:changed', { applicationIds: [fleet] });
    await new Promise((r) => setImmediate(r));
    const plain = await poll(d.api_key, d.uuid);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const strong = plain.headers.etag as string;
    const gzipped = await t.app.inject({ method: 'GET', url: `/device/v3/${d.uuid}/state`, headers: { authorization: `Bearer ${d.api_key}`, 'accept-encoding': 'gzip' } });
    expect(gzipped.statusCode).toBe(200);
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(plain.body);
    expect(gzipped.headers.etag).toBe(`W/${strong}`);
    for (const etag of [`W/${strong}`, strong]) {
      const again = await t.app.inject({
        method: 'GET',
        url: `/device/v3/${d.uuid}/state`,
        headers: { authorization: `Bearer ${d.api_key}`, 'accept-encoding': 'gzip', 'if-none-match': etag },
      });
      expect(again.statusCode, etag).toBe(304);
      expect(again.rawPayload.length).toBe(0);
    }
  });

  it('answers 200 without a service once that service is deleted', async () => {
    const d = await newDevice();
    const rel = await insertRelease(fleet, { web: {}, worker: {} });
    await setFleetTarget(fleet, rel.id);
    await t.app.bus.publish('device-state:changed', { applicationIds: [fleet] });
    await new Promise((r) => setImmediate(r));
    const first = await poll(d.api_key, d.uuid);
    expect(Object.keys(first.json()[d.uuid].apps[fleetUuid].releases[rel.commit].services).sort()).toEqual(['web', 'worker']);
    const etag = first.headers.etag as string;
    expect((await poll(d.api_key, d.uuid, etag)).statusCode).toBe(304);

    const del = await req(owner.token, 'DELETE', `/v7/service(${rel.ids.worker!.service})`);
    expect(del.statusCode, del.body).toBe(200);
    const after = await poll(d.api_key, d.uuid, etag);
    expect(after.statusCode).toBe(200);
    expect(Object.keys(after.json()[d.uuid].apps[fleetUuid].releases[rel.commit].services)).toEqual(['web']);
  });

  it('records each poll as a heartbeat', async () => {
    const d = await newDevice();
    const before = await row<{ api_heartbeat_state: string; api_heartbeat_at: Date | null; overall_status: string }>(
      t.db,
      'SELECT api_heartbeat_state, api_heartbeat_at, overall_status FROM device WHERE id = $1',
      [d.id],
    );
    expect(before).toEqual({ api_heartbeat_state: 'unknown', api_heartbeat_at: null, overall_status: 'configuring' });
    expect((await poll(d.api_key, d.uuid)).statusCode).toBe(200);
    let after: { api_heartbeat_state: string; api_heartbeat_at: Date | null; last_connectivity_event: Date | null; overall_status: string } | undefined;
    for (let i = 0; i < 50; i++) {
      after = await row(t.db, 'SELECT api_heartbeat_state, api_heartbeat_at, last_connectivity_event, overall_status FROM device WHERE id = $1', [d.id]);
      if (after?.api_heartbeat_at) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(after?.api_heartbeat_state).toBe('online');
    expect(after?.api_heartbeat_at).toBeInstanceOf(Date);
    expect(after?.last_connectivity_event).toBeInstanceOf(Date);
    // Polling without a cloud link: the API is reachable but the tunnel is down (migration 0011).
    expect(after?.overall_status).toBe('reduced-functionality');
  });
});

describe('the state report', () => {
  it('stores reported fields, image and service installs, and the running release', async () => {
    const d = await newDevice();
    const rel = await insertRelease(fleet, { web: {}, db: {} });
    await req(owner.token, 'PATCH', `/v7/device(${d.id})`, { is_pinned_on__release: rel.id });
    const services = (status: string) => ({
      web: { image: 'x', status, download_progress: status === 'Downloading' ? 40 : null },
      db: { image: 'y', status: 'Running', download_progress: null },
    });
    const body = (status: string, extra: object = {}) => ({
      [d.uuid]: {
        os_version: 'balenaOS 6.0.0',
        supervisor_version: '17.0.0',
        ip_address: '10.0.0.2 192.168.1.4',
        mac_address: '00:11:22:33:44:55',
        provisioning_state: '',
        update_status: status === 'Downloading' ? 'downloading' : 'done',
        download_progress: status === 'Downloading' ? 40 : null,
        apps: { [fleetUuid]: { release_uuid: rel.commit, releases: { [rel.commit]: { services: services(status) } } } },
        ...extra,
      },
    });
    // A device that has connected (balena's overall_progress shows the provisioning progress
    // of one that never did), reporting its download as balena's supervisor does.
    await t.db.query(`UPDATE device SET is_online = true, api_heartbeat_state = 'online', last_connectivity_event = now() WHERE id = $1`, [d.id]);
    const first = await report(d.api_key, body('Downloading', { status: 'Downloading' }));
    expect(first.statusCode, first.body).toBe(200);
    let dev = await row<Record<string, unknown>>(t.db, 'SELECT os_version, supervisor_version, ip_address, mac_address, is_running__release, overall_status, overall_progress FROM device WHERE id = $1', [d.id]);
    expect(dev).toMatchObject({ os_version: 'balenaOS 6.0.0', supervisor_version: '17.0.0', ip_address: '10.0.0.2 192.168.1.4', mac_address: '00:11:22:33:44:55', is_running__release: null, overall_progress: 40 });
    const installs = async () =>
      (await t.db.query<{ image: number; status: string; download_progress: number | null; release: number }>(
        'SELECT installs__image AS image, status, download_progress, is_provided_by__release AS release FROM image_install WHERE device = $1 ORDER BY installs__image',
        [d.id],
      )).rows;
    expect(await installs()).toEqual(
      [
        { image: rel.ids.web!.image, status: 'Downloading', download_progress: 40, release: rel.id },
        { image: rel.ids.db!.image, status: 'Running', download_progress: null, release: rel.id },
      ].sort((a, b) => a.image - b.image),
    );
    const serviceInstalls = (await t.db.query<{ s: number }>('SELECT installs__service AS s FROM service_install WHERE device = $1 ORDER BY 1', [d.id])).rows.map((r) => r.s);
    expect(serviceInstalls).toEqual([rel.ids.web!.service, rel.ids.db!.service].sort((a, b) => a - b));

    expect((await report(d.api_key, body('Running'))).statusCode).toBe(200);
    dev = await row(t.db, 'SELECT is_running__release, update_status FROM device WHERE id = $1', [d.id]);
    expect(dev).toEqual({ is_running__release: rel.id, update_status: 'done' });
    // Readable through the data API as balena-sdk's getWithServiceDetails reads it.
    const read = await req(owner.token, 'GET', `/v7/device(${d.id})?$select=id&$expand=image_install($select=id,status;$expand=installs__image($select=id))`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().d[0].image_install).toHaveLength(2);
  });

  it('stores metrics at most once a minute', async () => {
    const d = await newDevice();
    expect((await report(d.api_key, { [d.uuid]: { cpu_usage: 10, memory_usage: 100, memory_total: 1000 } })).statusCode).toBe(200);
    expect((await report(d.api_key, { [d.uuid]: { cpu_usage: 50, memory_usage: 500, os_version: 'later' } })).statusCode).toBe(200);
    const dev = await row(t.db, 'SELECT cpu_usage, memory_usage, memory_total, os_version FROM device WHERE id = $1', [d.id]);
    expect(dev).toEqual({ cpu_usage: 10, memory_usage: 100, memory_total: 1000, os_version: 'later' });
    await t.db.query(`UPDATE device SET metrics_reported_at = now() - interval '61 seconds' WHERE id = $1`, [d.id]);
    await report(d.api_key, { [d.uuid]: { cpu_usage: 70 } });
    expect(await row(t.db, 'SELECT cpu_usage FROM device WHERE id = $1', [d.id])).toEqual({ cpu_usage: 70 });
  });

  it('marks a device post-provisioning while it says so', async () => {
    const d = await newDevice();
    await report(d.api_key, { [d.uuid]: { provisioning_state: 'Post-Provisioning', provisioning_progress: 80 } });
    expect(await row(t.db, 'SELECT overall_status, overall_progress FROM device WHERE id = $1', [d.id])).toEqual({ overall_status: 'post-provisioning', overall_progress: 80 });
  });

  it("refuses a report for another device, and reports with other keys", async () => {
    const a = await newDevice();
    const b = await newDevice(fleetB, provKeyB);
    expect((await report(a.api_key, { [b.uuid]: { os_version: 'hijack' } })).statusCode).toBe(403);
    expect((await report(provKey, { [a.uuid]: { os_version: 'x' } })).statusCode).toBe(401);
    expect((await report(owner.token, { [a.uuid]: { os_version: 'x' } })).statusCode).toBe(401);
    expect(await row(t.db, 'SELECT os_version FROM device WHERE id = $1', [b.id])).toEqual({ os_version: null });
  });
});

describe('two tenants', () => {
  it("keeps a device key to its own device and its fleet's rows", async () => {
    const a = await newDevice();
    const b = await newDevice(fleetB, provKeyB);
    await insertRelease(fleetB, { other: {} });
    const devices = await req(a.api_key, 'GET', '/v7/device?$select=id');
    expect(devices.json().d).toEqual([{ id: a.id }]);
    const apps = await req(a.api_key, 'GET', '/v7/application?$select=id');
    expect(apps.json().d).toEqual([{ id: fleet }]);
    const releases = await req(a.api_key, 'GET', `/v7/release?$select=id&$filter=belongs_to__application eq ${fleetB}`);
    expect(releases.json().d).toEqual([]);
    expect((await req(a.api_key, 'GET', `/v7/device(${b.id})?$select=id`)).json().d).toEqual([]);
    expect((await req(a.api_key, 'PATCH', `/v7/device(${a.id})`, { device_name: 'renamed' })).statusCode).toBe(401);
    expect((await req(a.api_key, 'GET', '/v7/user?$select=id')).statusCode).not.toBe(200);
    const prov = await req(provKey, 'GET', '/v7/device?$select=id');
    expect(prov.json().d.map((x: { id: number }) => x.id)).not.toContain(b.id);
  });
});

describe('whoami with device and provisioning keys', () => {
  it('answers a device key as its device and a provisioning key as its fleet (dialect §1.3)', async () => {
    const d = await newDevice();
    const device = await row<{ actor: number }>(t.db, 'SELECT actor FROM device WHERE id = $1', [d.id]);
    const asDevice = await req(d.api_key, 'GET', '/actor/v1/whoami');
    expect(asDevice.statusCode, asDevice.body).toBe(200);
    expect(asDevice.json()).toEqual({ id: device!.actor, actorType: 'device', actorTypeId: d.id, uuid: d.uuid });

    const app = await row<{ actor: number; slug: string }>(t.db, 'SELECT actor, slug FROM application WHERE id = $1', [fleet]);
    const asFleet = await req(provKey, 'GET', '/actor/v1/whoami');
    expect(asFleet.statusCode, asFleet.body).toBe(200);
    expect(asFleet.json()).toEqual({ id: app!.actor, actorType: 'application', actorTypeId: fleet, slug: app!.slug });

    // The user form is unchanged, and a bad key is still refused.
    const asUser = (await req(owner.token, 'GET', '/actor/v1/whoami')).json();
    expect(asUser).toMatchObject({ actorType: 'user', actorTypeId: owner.userId });
    expect(asUser).not.toHaveProperty('uuid');
    expect((await req('not-a-key', 'GET', '/actor/v1/whoami')).statusCode).toBe(401);
  });
});

describe('the overall status', () => {
  // Balena's definition (issue 12; the full table is balena-compat-overall-status.test.ts).
  it('reads reduced functionality when the heartbeat is online but the cloud link is down, or the link is up and the heartbeat is not online', async () => {
    const d = await newDevice();
    const statusWith = async (fields: { is_online: boolean; api_heartbeat_state: string; downloading?: boolean }) => {
      await t.db.query(
        `UPDATE device SET is_online = $2, api_heartbeat_state = $3, status = $4, download_progress = $5, last_connectivity_event = now() WHERE id = $1`,
        [d.id, fields.is_online, fields.api_heartbeat_state, fields.downloading ? 'Downloading' : 'Idle', fields.downloading ? 30 : null],
      );
      return (await row<{ overall_status: string }>(t.db, 'SELECT overall_status FROM device WHERE id = $1', [d.id]))!.overall_status;
    };
    expect(await statusWith({ is_online: false, api_heartbeat_state: 'online' })).toBe('reduced-functionality');
    expect(await statusWith({ is_online: true, api_heartbeat_state: 'timeout' })).toBe('reduced-functionality');
    expect(await statusWith({ is_online: true, api_heartbeat_state: 'offline' })).toBe('reduced-functionality');
    // balena: the link down with a timed-out heartbeat is not reduced functionality.
    expect(await statusWith({ is_online: false, api_heartbeat_state: 'timeout' })).toBe('operational');
    expect(await statusWith({ is_online: true, api_heartbeat_state: 'online' })).toBe('operational');
    expect(await statusWith({ is_online: false, api_heartbeat_state: 'offline' })).toBe('disconnected');
    expect(await statusWith({ is_online: true, api_heartbeat_state: 'online', downloading: true })).toBe('updating');
    expect(await statusWith({ is_online: false, api_heartbeat_state: 'online', downloading: true })).toBe('reduced-functionality');
  });
});

describe('device tags with a device key', () => {
  it('lets a device read its own tags only, and not write them', async () => {
    const a = await newDevice();
    const b = await newDevice();
    await t.db.query(`INSERT INTO device_tag (device, tag_key, value) VALUES ($1, 'room', 'kitchen'), ($2, 'room', 'garage')`, [a.id, b.id]);
    const mine = await req(a.api_key, 'GET', '/v6/device_tag?$select=tag_key,value');
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().d).toEqual([{ tag_key: 'room', value: 'kitchen' }]);
    expect((await req(a.api_key, 'POST', '/v6/device_tag', { device: a.id, tag_key: 'floor', value: '1' })).statusCode).toBe(401);
    expect(await row(t.db, `SELECT 1 FROM device_tag WHERE device = $1 AND tag_key = 'floor'`, [a.id])).toBeUndefined();
  });
});
