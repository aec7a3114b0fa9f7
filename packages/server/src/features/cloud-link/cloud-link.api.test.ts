import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.js';
import { bearer, createTestDb, signUp, TEST_JWT_SECRET, type SignedUpUser } from '../../../test/harness.js';
import { createFleet, giveFleetRole } from '../../../test/support/fleet-helpers.js';
import { eventually, insertDevice, LinkRefused, TestLink, type TestDevice } from '../../../test/support/cloud-link.js';
import type { PoolDb } from '../../infra/db/db.js';
import { markLinkClosed, markLinkOpened } from './link-connectivity.js';
import { DEVICE_NOT_CONNECTED } from '../actions/action-relay.js';

/**
 * The cloud link (issue-5 contract): `GET /device/v1/link` over real HTTP with a device
 * key, and the device actions relayed over it (`/supervisor/*`, `/application/{id}/restart`).
 */

let app: FastifyInstance;
let db: PoolDb;
let drop: () => Promise<void>;
let baseUrl: string;
let owner: SignedUpUser;
let fleetId: number;

beforeAll(async () => {
  const t = await createTestDb();
  db = t.db;
  drop = t.drop;
  // A short answer timeout so the 504 case does not wait the production 30 s.
  app = await buildApp({ db, jwtSecret: TEST_JWT_SECRET, actionTimeoutMs: 1_500 });
  baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  owner = await signUp(app);
  fleetId = await createFleet(app, db, owner, 'LinkedFleet');
});

afterAll(async () => {
  await app.close();
  await drop();
});

const deviceRow = async (id: number) =>
  (await db.query<{ is_online: boolean; last_connectivity_event: Date | null }>('SELECT is_online, last_connectivity_event FROM device WHERE id = $1', [id])).rows[0]!;

async function linked(): Promise<{ device: TestDevice; link: TestLink }> {
  const device = await insertDevice(db, fleetId);
  const link = await TestLink.open(baseUrl, device.key);
  await eventually(() => deviceRow(device.id), (r) => r.is_online);
  return { device, link };
}

const post = (token: string, url: string, payload: object) => app.inject({ method: 'POST', url, headers: bearer(token), payload });

async function refusal(key: string | null, headers: Record<string, string> = {}): Promise<number> {
  try {
    const link = await TestLink.open(baseUrl, key, headers);
    await link.close();
    return 101;
  } catch (err) {
    if (err instanceof LinkRefused) return err.status;
    throw err;
  }
}

describe('opening a cloud link', () => {
  it('refuses a link without a key, with an unknown key, and with a user key', async () => {
    expect(await refusal(null)).toBe(401);
    expect(await refusal('not-a-key-that-exists')).toBe(401);
    const userKey = await post(owner.token, '/api-key/user/full', { name: 'mine' });
    expect(userKey.statusCode).toBe(200);
    expect(await refusal(userKey.json<string>())).toBe(403);
  });

  it('refuses a browser whose Origin is not the public URL, and accepts the public origin', async () => {
    const device = await insertDevice(db, fleetId);
    expect(await refusal(device.key, { origin: 'https://evil.example' })).toBe(403);
    expect((await deviceRow(device.id)).is_online).toBe(false);
    expect(await refusal(device.key, { origin: 'http://localhost:8080' })).toBe(101);
  });

  it('marks the device online on open and offline on close, with the connectivity event time', async () => {
    const device = await insertDevice(db, fleetId);
    expect(await deviceRow(device.id)).toEqual({ is_online: false, last_connectivity_event: null });
    const link = await TestLink.open(baseUrl, device.key);
    const opened = await eventually(() => deviceRow(device.id), (r) => r.is_online);
    expect(opened.last_connectivity_event).toBeInstanceOf(Date);
    await link.close();
    const closed = await eventually(() => deviceRow(device.id), (r) => !r.is_online);
    expect(closed.last_connectivity_event!.getTime()).toBeGreaterThanOrEqual(opened.last_connectivity_event!.getTime());
    const api = await app.inject({ method: 'GET', url: `/v7/device(${device.id})?$select=is_online`, headers: bearer(owner.token) });
    expect(api.json().d[0].is_online).toBe(false);
  });

  it('replaces an older link of the same device; the device stays online and only the new link gets actions', async () => {
    const { device, link: first } = await linked();
    const firstClosed = first.closed();
    const second = await TestLink.open(baseUrl, device.key);
    expect(await firstClosed).toBe(4001);
    const res = await post(owner.token, '/supervisor/v1/blink', { uuid: device.uuid });
    expect(res.statusCode).toBe(200);
    expect(first.actions).toEqual([]);
    expect(second.actions.map((a) => a.action)).toEqual(['blink']);
    expect((await deviceRow(device.id)).is_online).toBe(true);
    await second.close();
  });
});

describe('device actions over the link', () => {
  it('relays a reboot to the device and answers with its status and body', async () => {
    const { device, link } = await linked();
    link.answer = () => ({ status: 202, body: { Data: 'OK', Error: null } });
    const res = await post(owner.token, '/supervisor/v1/reboot', { deviceId: device.id, data: { force: false } });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ Data: 'OK', Error: null });
    expect(link.actions).toEqual([{ type: 'action', id: expect.any(String), action: 'reboot', params: { force: false } }]);
    await link.close();
  });

  it('answers 423 with the body on an update lock, and goes through with force', async () => {
    const { device, link } = await linked();
    link.answer = (a) => (a.params.force === true ? { status: 200, body: 'OK' } : { status: 423, body: { Error: 'Updates are locked' } });
    const locked = await post(owner.token, '/supervisor/v1/shutdown', { deviceId: device.id, data: { force: false } });
    expect(locked.statusCode).toBe(423);
    expect(locked.json()).toEqual({ Error: 'Updates are locked' });
    const forced = await post(owner.token, '/supervisor/v1/shutdown', { deviceId: device.id, data: { force: true } });
    expect(forced.statusCode).toBe(200);
    expect(forced.body).toBe('OK');
    expect(link.actions.map((a) => [a.action, a.params.force])).toEqual([
      ['shutdown', false],
      ['shutdown', true],
    ]);
    await link.close();
  });

  it('relays service actions with the fleet id from the path and the image from the body', async () => {
    const { device, link } = await linked();
    const res = await post(owner.token, `/supervisor/v2/applications/${fleetId}/restart-service`, {
      deviceId: device.id,
      data: { appId: fleetId, imageId: 77 },
    });
    expect(res.statusCode).toBe(200);
    expect(link.actions.map((a) => [a.action, a.params])).toEqual([['restart-service', { appId: fleetId, imageId: 77 }]]);
    await link.close();
  });

  it('restarts a fleet on its online devices', async () => {
    const fleet = await createFleet(app, db, owner, 'RestartFleet');
    const a = await insertDevice(db, fleet);
    const b = await insertDevice(db, fleet);
    const offline = await insertDevice(db, fleet);
    const linkA = await TestLink.open(baseUrl, a.key);
    const linkB = await TestLink.open(baseUrl, b.key);
    await eventually(() => db.query('SELECT 1 FROM device WHERE id = ANY($1) AND is_online', [[a.id, b.id]]), (r) => r.rowCount === 2);
    const res = await app.inject({ method: 'POST', url: `/application/${fleet}/restart`, headers: bearer(owner.token) });
    expect(res.statusCode).toBe(200);
    expect([linkA.actions.length, linkB.actions.length]).toEqual([1, 1]);
    expect(linkA.actions[0]).toMatchObject({ action: 'restart', params: { appId: fleet } });
    expect((await deviceRow(offline.id)).is_online).toBe(false);
    await Promise.all([linkA.close(), linkB.close()]);
  });

  it("answers balena's 404 'No online device(s) found' when no link is open", async () => {
    const device = await insertDevice(db, fleetId);
    const res = await post(owner.token, '/supervisor/v1/reboot', { deviceId: device.id });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toBe('No online device(s) found');
  });

  it("answers 504 'The device did not answer' when the device stays silent", async () => {
    const { device, link } = await linked();
    link.answer = () => null;
    const res = await post(owner.token, '/supervisor/v1/restart', { deviceId: device.id, appId: fleetId, data: {} });
    expect(res.statusCode).toBe(504);
    expect(res.json()).toBe('The device did not answer');
    expect(link.actions.map((a) => [a.action, a.params])).toEqual([['restart', { appId: fleetId }]]);
    await link.close();
  });

  // Issue 21 (a node killed under load): the database still says online, but the process that
  // held the link is gone and the device is reconnecting through the load balancer.
  it('holds an action for a device between links until it reconnects, then relays it once', async () => {
    const device = await insertDevice(db, fleetId);
    await db.query('UPDATE device SET is_online = true WHERE id = $1', [device.id]);
    const asked = post(owner.token, '/supervisor/v1/blink', { uuid: device.uuid });
    await new Promise((r) => setTimeout(r, 600));
    const link = await TestLink.open(baseUrl, device.key);
    const res = await asked;
    expect([res.statusCode, res.body]).toEqual([200, 'OK']);
    expect(link.actions.map((a) => a.action)).toEqual(['blink']);
    await link.close();
  });

  it("answers 503 with what to do when the device's link does not come back within the wait", async () => {
    const device = await insertDevice(db, fleetId);
    await db.query('UPDATE device SET is_online = true WHERE id = $1', [device.id]);
    const res = await post(owner.token, '/supervisor/v1/blink', { uuid: device.uuid });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toBe(DEVICE_NOT_CONNECTED);
  });

  it('needs devices named by appId, deviceId or uuid', async () => {
    const res = await post(owner.token, '/supervisor/v1/reboot', { data: {} });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toBe('At least one filter must be specified');
  });
});

describe('who may act on a device', () => {
  it('refuses anonymous callers and fleet observers; lets operators act', async () => {
    const { device, link } = await linked();
    const anonymous = await app.inject({ method: 'POST', url: '/supervisor/v1/reboot', payload: { deviceId: device.id } });
    expect(anonymous.statusCode).toBe(401);
    const observer = await signUp(app);
    await giveFleetRole(db, owner.orgId, fleetId, observer, 'observer');
    const refused = await post(observer.token, '/supervisor/v1/reboot', { deviceId: device.id });
    expect(refused.statusCode).toBe(403);
    const operator = await signUp(app);
    await giveFleetRole(db, owner.orgId, fleetId, operator, 'operator');
    const allowed = await post(operator.token, '/supervisor/v1/reboot', { deviceId: device.id });
    expect(allowed.statusCode).toBe(200);
    expect(link.actions.map((a) => a.action)).toEqual(['reboot']);
    await link.close();
  });

  it("does not let another organization's user act on, or learn of, the device", async () => {
    const { device, link } = await linked();
    const stranger = await signUp(app);
    const byId = await post(stranger.token, '/supervisor/v1/reboot', { deviceId: device.id });
    const byUuid = await post(stranger.token, '/supervisor/v1/blink', { uuid: device.uuid });
    const service = await post(stranger.token, `/supervisor/v2/applications/${fleetId}/stop-service`, { deviceId: device.id, data: { imageId: 1 } });
    const fleet = await app.inject({ method: 'POST', url: `/application/${fleetId}/restart`, headers: bearer(stranger.token) });
    expect([byId.statusCode, byUuid.statusCode, service.statusCode, fleet.statusCode]).toEqual([404, 404, 404, 404]);
    expect(link.actions).toEqual([]);
    await link.close();
  });
});

describe('the current link decides is_online', () => {
  it('ignores the late close of a replaced link, and counts the close of the current one even after heartbeats', async () => {
    const device = await insertDevice(db, fleetId);
    const [old, current] = [randomUUID(), randomUUID()];
    await markLinkOpened(db, device.id, old);
    await markLinkOpened(db, device.id, current);
    await markLinkClosed(db, device.id, old);
    expect((await deviceRow(device.id)).is_online).toBe(true);
    // A poll after a timeout writes last_connectivity_event too; the close still counts.
    await db.query(`UPDATE device SET last_connectivity_event = now() + interval '1 minute', api_heartbeat_state = 'online' WHERE id = $1`, [device.id]);
    await markLinkClosed(db, device.id, current);
    expect((await deviceRow(device.id)).is_online).toBe(false);
    expect((await db.query('SELECT 1 FROM cloud_link WHERE device = $1', [device.id])).rowCount).toBe(0);
  });
});

describe('target-state changes reach linked devices at once', () => {
  const targetChanged = (link: TestLink) => link.notices.filter((n) => n.type === 'target-changed');

  it('tells every linked device of the fleet (and only those) when a fleet variable changes, and one device when its own does', async () => {
    const one = await linked();
    const two = await linked();
    const otherFleet = await createFleet(app, db, owner, 'OtherLinkedFleet');
    const stranger = await insertDevice(db, otherFleet);
    const strangerLink = await TestLink.open(baseUrl, stranger.key);
    try {
      const fleetVar = await post(owner.token, '/v7/application_environment_variable', { application: fleetId, name: 'GREETING', value: 'hello' });
      expect(fleetVar.statusCode, fleetVar.body).toBe(201);
      await eventually(async () => targetChanged(one.link).length + targetChanged(two.link).length, (n) => n === 2);
      // Spread over at least a second so a large fleet's polls do not all land at once.
      expect(targetChanged(one.link)[0]).toEqual({ type: 'target-changed', withinMs: 1_000 });

      const deviceVar = await post(owner.token, '/v7/device_environment_variable', { device: two.device.id, name: 'ONLY_TWO', value: 'x' });
      expect(deviceVar.statusCode, deviceVar.body).toBe(201);
      await eventually(async () => targetChanged(two.link).length, (n) => n === 2);
      // A later change to the other fleet proves the earlier ones were not delayed on their way to it.
      const otherVar = await post(owner.token, '/v7/application_environment_variable', { application: otherFleet, name: 'GREETING', value: 'hi' });
      expect(otherVar.statusCode, otherVar.body).toBe(201);
      await eventually(async () => targetChanged(strangerLink).length, (n) => n === 1);
      expect(targetChanged(one.link)).toHaveLength(1);
      expect(targetChanged(two.link)).toHaveLength(2);
    } finally {
      await Promise.all([one.link.close(), two.link.close(), strangerLink.close()]);
    }
  });
});
