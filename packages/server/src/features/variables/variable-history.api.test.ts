import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, sdkClient, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';
import { createFleet, giveFleetRole, hex, requester } from '../../../test/support/fleet-helpers.js';

// Issue 16 item 2, the history of variables (`variable_change`) through the published
// balena-sdk: every create, update and delete of the six variable resources appends a row
// (who, when, old → new) in the write's transaction, the SDK's upsert included; fleet
// members (observers too) read it, other organizations never; nobody writes it.
let t: TestApp;
let req: ReturnType<typeof requester>;
let apiUrl: string;
let sdk: ReturnType<typeof sdkClient>;
let owner: SignedUpUser;
let observer: SignedUpUser;
let outsider: SignedUpUser;
let fleetId: number;
let otherFleetId: number;
let device: { id: number; uuid: string; api_key: string };
let serviceId: number;

interface Change {
  id: number;
  created_at: string;
  application: { __id: number };
  device: { __id: number } | null;
  service: { __id: number } | null;
  variable_kind: string;
  name: string;
  action: string;
  old_value: string | null;
  new_value: string | null;
  actor: { __id: number } | null;
  actor_name: string;
}

/** `variable_change` is not in balena-sdk's typed model (a Flotilla resource): the untyped pine call. */
const pineOf = (client: ReturnType<typeof sdkClient>) => client.pine as unknown as { get(p: object): Promise<unknown> };

async function history(client = sdk, filter: Record<string, unknown> = {}): Promise<Change[]> {
  return (await pineOf(client).get({
    resource: 'variable_change',
    options: { $filter: { application: fleetId, ...filter }, $orderby: [{ created_at: 'desc' }, { id: 'desc' }] },
  })) as unknown as Change[];
}
/** The newest `n` changes, oldest first, as [kind, name, action, old, new]. */
const newest = async (n: number, client = sdk) =>
  (await history(client))
    .slice(0, n)
    .reverse()
    .map((c) => [c.variable_kind, c.name, c.action, c.old_value, c.new_value]);

async function clientFor(user: SignedUpUser) {
  const c = sdkClient(apiUrl);
  await c.auth.loginWithToken(user.token);
  return c;
}

beforeAll(async () => {
  t = await buildTestApp();
  req = requester(t.app);
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  [owner, observer, outsider] = await Promise.all([signUp(t.app), signUp(t.app), signUp(t.app)]);
  sdk = await clientFor(owner);
  fleetId = await createFleet(t.app, t.db, owner, `History${hex(3)}`);
  otherFleetId = await createFleet(t.app, t.db, outsider, `Elsewhere${hex(3)}`);
  await giveFleetRole(t.db, owner.orgId, fleetId, observer, 'observer');
  const provKey = (await req(owner.token, 'POST', '/api-key/v2/', { actorType: 'application', actorTypeId: fleetId, roles: ['provisioning-api-key'] })).json();
  const reg = await req(provKey, 'POST', '/device/register', { application: fleetId, uuid: hex(), device_type: 'raspberrypi3' });
  device = reg.json();
  serviceId = ((await sdk.pine.post({ resource: 'service', body: { application: fleetId, service_name: 'main' } })) as { id: number }).id;
  await t.db.query('INSERT INTO service_install (device, installs__service) VALUES ($1, $2)', [device.id, serviceId]);
});
afterAll(async () => {
  await t?.close();
});

describe('variable_change', () => {
  it('records a fleet variable’s create, update (the SDK’s upsert) and delete with who and when, newest first', async () => {
    const before = Date.now();
    await sdk.models.application.envVar.set(fleetId, 'GREETING', 'hello');
    await sdk.models.application.envVar.set(fleetId, 'GREETING', 'hi'); // POST → 409 (rolled back) → PATCH
    await sdk.models.application.envVar.set(fleetId, 'GREETING', 'hi'); // no change: nothing recorded
    await sdk.models.application.envVar.remove(fleetId, 'GREETING');
    const rows = await history();
    expect(rows.slice(0, 3).map((c) => [c.action, c.old_value, c.new_value])).toEqual([
      ['delete', 'hi', null],
      ['update', 'hello', 'hi'],
      ['create', null, 'hello'],
    ]);
    for (const c of rows.slice(0, 3)) {
      expect(c).toMatchObject({ application: { __id: fleetId }, device: null, service: null, variable_kind: 'application_environment_variable', name: 'GREETING' });
      expect(c.actor).toEqual({ __id: owner.userId });
      expect(c.actor_name).toBe(owner.username);
      expect(Date.parse(c.created_at)).toBeGreaterThanOrEqual(before - 1000);
    }
    const [expanded] = (await pineOf(sdk).get({
      resource: 'variable_change',
      options: { $top: 1, $filter: { application: fleetId }, $orderby: { id: 'desc' }, $select: ['id', 'actor'], $expand: { actor: { $select: ['username'] }, application: { $select: ['id'] } } },
    })) as unknown as { actor: { username: string }[]; application: { id: number }[] }[];
    expect(expanded!.actor).toEqual([{ username: owner.username }]);
    expect(expanded!.application).toEqual([{ id: fleetId }]);
  });

  it('records every variable resource with its fleet, device and service', async () => {
    const d = sdk.models.device;
    await sdk.models.application.configVar.set(fleetId, 'BALENA_SUPERVISOR_POLL_INTERVAL', '60000');
    await sdk.models.service.var.set(serviceId, 'SVC', 'one');
    await d.envVar.set(device.uuid, 'DEV', 'a');
    await d.configVar.set(device.uuid, 'BALENA_CUSTOM', 'x');
    await d.serviceVar.set(device.uuid, serviceId, 'DSV', 'p');
    await d.serviceVar.set(device.uuid, serviceId, 'DSV', 'q');
    await d.serviceVar.remove(device.uuid, serviceId, 'DSV');
    const rows = (await history()).slice(0, 7).reverse();
    expect(rows.map((c) => [c.variable_kind, c.name, c.action, c.old_value, c.new_value, c.device?.__id ?? null, c.service?.__id ?? null])).toEqual([
      ['application_config_variable', 'BALENA_SUPERVISOR_POLL_INTERVAL', 'create', null, '60000', null, null],
      ['service_environment_variable', 'SVC', 'create', null, 'one', null, serviceId],
      ['device_environment_variable', 'DEV', 'create', null, 'a', device.id, null],
      ['device_config_variable', 'BALENA_CUSTOM', 'create', null, 'x', device.id, null],
      ['device_service_environment_variable', 'DSV', 'create', null, 'p', device.id, serviceId],
      ['device_service_environment_variable', 'DSV', 'update', 'p', 'q', device.id, serviceId],
      ['device_service_environment_variable', 'DSV', 'delete', 'q', null, device.id, serviceId],
    ]);
    // Filtered per variable, as a history dialog asks.
    const perDevice = await history(sdk, { device: device.id, name: 'DEV' });
    expect(perDevice.map((c) => c.action)).toEqual(['create']);
  });

  it('records a rename as delete and create, and a PATCH by filter on several rows one row each', async () => {
    const [a] = (await sdk.pine.get({ resource: 'device_environment_variable', options: { $filter: { device: device.id, name: 'DEV' }, $select: ['id'] } })) as { id: number }[];
    await sdk.pine.patch({ resource: 'device_environment_variable', id: a!.id, body: { name: 'DEV2' } });
    expect(await newest(2)).toEqual([
      ['device_environment_variable', 'DEV', 'delete', 'a', null],
      ['device_environment_variable', 'DEV2', 'create', null, 'a'],
    ]);
    await sdk.models.application.envVar.set(fleetId, 'M1', '1');
    await sdk.models.application.envVar.set(fleetId, 'M2', '2');
    await sdk.pine.patch({ resource: 'application_environment_variable', options: { $filter: { application: fleetId, name: { $in: ['M1', 'M2'] } } }, body: { value: '9' } });
    expect(await newest(2)).toEqual([
      ['application_environment_variable', 'M1', 'update', '1', '9'],
      ['application_environment_variable', 'M2', 'update', '2', '9'],
    ]);
  });

  it('names a device writing its own configuration, and a user’s API key as the user', async () => {
    const res = await req(device.api_key, 'POST', '/v7/device_config_variable', { device: device.id, name: 'BALENA_SUPERVISOR_DELTA', value: 'true' });
    expect(res.statusCode, res.body).toBe(201);
    const [byDevice] = await history();
    expect(byDevice).toMatchObject({ name: 'BALENA_SUPERVISOR_DELTA', action: 'create', actor: null, actor_name: 'device', device: { __id: device.id } });

    const key = await sdk.models.apiKey.create({ name: 'ci-key', expiryDate: null });
    const byKey = await req(key, 'POST', '/v7/application_environment_variable', { application: fleetId, name: 'FROM_KEY', value: '1' });
    expect(byKey.statusCode, byKey.body).toBe(201);
    const [last] = await history();
    expect(last).toMatchObject({ name: 'FROM_KEY', actor: { __id: owner.userId }, actor_name: owner.username });
  });

  it('is read by fleet observers, never by another organization, and never written through the API', async () => {
    const all = await history();
    expect(all.length).toBeGreaterThan(10);
    const asObserver = await history(await clientFor(observer));
    expect(asObserver.map((c) => c.id)).toEqual(all.map((c) => c.id));

    const outsiderSdk = await clientFor(outsider);
    await outsiderSdk.models.application.envVar.set(otherFleetId, 'THEIRS', 'x');
    const seenByOutsider = (await pineOf(outsiderSdk).get({ resource: 'variable_change', options: { $select: ['id', 'application'] } })) as unknown as Change[];
    expect(seenByOutsider.length).toBe(1);
    expect(seenByOutsider.every((c) => c.application.__id === otherFleetId)).toBe(true);
    expect(await pineOf(outsiderSdk).get({ resource: 'variable_change', id: all[0]!.id })).toBeUndefined();
    const ownSeen = await history(sdk, {});
    expect(ownSeen.some((c) => c.application.__id === otherFleetId)).toBe(false);

    const id = all[0]!.id;
    const count = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM variable_change')).rows[0]!.n;
    const n = await count();
    const post = await req(owner.token, 'POST', '/v7/variable_change', { application: fleetId, variable_kind: 'application_environment_variable', name: 'X', action: 'create', actor_name: 'me' });
    expect(post.statusCode).toBeGreaterThanOrEqual(400);
    expect(post.statusCode).toBeLessThan(500);
    const patch = await req(owner.token, 'PATCH', `/v7/variable_change(${id})`, { new_value: 'forged' });
    expect(patch.statusCode).toBeGreaterThanOrEqual(400);
    expect(patch.statusCode).toBeLessThan(500);
    const del = await req(owner.token, 'DELETE', `/v7/variable_change(${id})`);
    expect(del.statusCode).toBeGreaterThanOrEqual(400);
    expect(del.statusCode).toBeLessThan(500);
    expect(await count()).toBe(n);
    expect((await t.db.query('SELECT new_value FROM variable_change WHERE id = $1', [id])).rows[0]).toEqual({ new_value: all[0]!.new_value });
  });

  it('bounds its pages like every resource', async () => {
    const res = await req(owner.token, 'GET', `/v7/variable_change?$filter=application eq ${fleetId}&$top=10001`);
    expect(res.statusCode).toBe(400);
    const page = await req(owner.token, 'GET', `/v7/variable_change?$filter=application eq ${fleetId}&$top=2&$orderby=created_at desc`);
    expect(page.json().d).toHaveLength(2);
  });
});
