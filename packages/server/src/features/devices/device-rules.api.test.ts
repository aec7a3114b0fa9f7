import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.js';
import type { PoolDb } from '../../infra/db/db.js';
import { bearer, createTestDb, signUp, TEST_JWT_SECRET, type SignedUpUser } from '../../../test/harness.js';
import { eventually, insertDevice, TestLink } from '../../../test/support/cloud-link.js';
import { createFleet } from '../../../test/support/fleet-helpers.js';

/**
 * Device rules the dashboard mirrors, enforced by the server (spec 2 §4): deactivating needs
 * an active, disconnected device; local mode needs a dev OS and supervisor ≥ 4; identify
 * needs a device type with an LED. A refused request changes nothing.
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
  app = await buildApp({ db, jwtSecret: TEST_JWT_SECRET });
  baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  owner = await signUp(app);
  fleetId = await createFleet(app, db, owner, 'RulesFleet');
});

afterAll(async () => {
  await app.close();
  await drop();
});

const req = (method: 'POST' | 'PATCH', url: string, payload: object) => app.inject({ method, url, headers: bearer(owner.token), payload });
const active = async (id: number) => (await db.query<{ is_active: boolean }>('SELECT is_active FROM device WHERE id = $1', [id])).rows[0]!.is_active;
const isOnline = async (id: number) => (await db.query<{ is_online: boolean }>('SELECT is_online FROM device WHERE id = $1', [id])).rows[0]!.is_online;

describe('deactivating a device', () => {
  it('needs a disconnected device, and an inactive one says so', async () => {
    const device = await insertDevice(db, fleetId);
    const link = await TestLink.open(baseUrl, device.key);
    try {
      await eventually(() => isOnline(device.id), (online) => online);
      const linked = await req('PATCH', `/v7/device(${device.id})`, { is_active: false });
      expect(linked.statusCode).toBe(400);
      expect(linked.json()).toBe('device must be offline');
      expect(await active(device.id)).toBe(true);
    } finally {
      await link.close();
    }
    await eventually(() => isOnline(device.id), (online) => !online);
    expect((await req('PATCH', `/v7/device(${device.id})`, { is_active: false })).statusCode).toBe(200);
    expect(await active(device.id)).toBe(false);
    const again = await req('PATCH', `/v7/device(${device.id})`, { is_active: false });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toBe('device already inactive');
  });
});

describe('local mode', () => {
  it('is refused for a production OS or an old supervisor, allowed for a dev OS with supervisor ≥ 4, and can always be turned off', async () => {
    const prod = await insertDevice(db, fleetId);
    await db.query(`UPDATE device SET os_variant = 'prod', supervisor_version = '14.0.0' WHERE id = $1`, [prod.id]);
    const refused = await req('POST', '/v7/device_config_variable', { device: prod.id, name: 'RESIN_SUPERVISOR_LOCAL_MODE', value: '1' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toBe('Local mode needs a development OS variant and supervisor 4 or newer');
    expect((await db.query('SELECT 1 FROM device_config_variable WHERE device = $1', [prod.id])).rows).toHaveLength(0);
    expect((await req('POST', '/v7/device_config_variable', { device: prod.id, name: 'RESIN_SUPERVISOR_LOCAL_MODE', value: '0' })).statusCode).toBe(201);

    const oldSupervisor = await insertDevice(db, fleetId);
    await db.query(`UPDATE device SET os_variant = 'dev', supervisor_version = '3.9.0' WHERE id = $1`, [oldSupervisor.id]);
    expect((await req('POST', '/v7/device_config_variable', { device: oldSupervisor.id, name: 'BALENA_SUPERVISOR_LOCAL_MODE', value: '1' })).statusCode).toBe(400);

    const dev = await insertDevice(db, fleetId);
    await db.query(`UPDATE device SET os_variant = 'dev', supervisor_version = '14.0.0' WHERE id = $1`, [dev.id]);
    const on = await req('POST', '/v7/device_config_variable', { device: dev.id, name: 'RESIN_SUPERVISOR_LOCAL_MODE', value: '1' });
    expect(on.statusCode, on.body).toBe(201);

    // Turning it on by PATCH is checked too; the refused PATCH keeps '0'.
    const off = (await db.query<{ id: number }>('SELECT id FROM device_config_variable WHERE device = $1', [prod.id])).rows[0]!.id;
    expect((await req('PATCH', `/v7/device_config_variable(${off})`, { value: '1' })).statusCode).toBe(400);
    expect((await db.query<{ value: string }>('SELECT value FROM device_config_variable WHERE id = $1', [off])).rows[0]!.value).toBe('0');
  });
});

describe('identify', () => {
  it('is refused for a device type without an LED, before anything is sent to the device', async () => {
    const nucFleet = await createFleet(app, db, owner, 'NucFleet', 'intel-nuc');
    const device = await insertDevice(db, nucFleet);
    const link = await TestLink.open(baseUrl, device.key);
    try {
      await eventually(() => isOnline(device.id), (online) => online);
      const res = await app.inject({ method: 'POST', url: '/supervisor/v1/blink', headers: bearer(owner.token), payload: { uuid: device.uuid } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toBe('Device does not support blinking');
      expect(link.actions).toEqual([]);
    } finally {
      await link.close();
    }
  });
});

describe('local mode', () => {
  it('refuses restart and purge with "not available in local mode" before anything is sent; reboot still goes', async () => {
    const device = await insertDevice(db, fleetId);
    const link = await TestLink.open(baseUrl, device.key);
    try {
      await eventually(() => isOnline(device.id), (online) => online);
      await db.query(`INSERT INTO device_config_variable (device, name, value) VALUES ($1, 'RESIN_SUPERVISOR_LOCAL_MODE', '1')`, [device.id]);
      const action = (path: string) => app.inject({ method: 'POST', url: `/supervisor/${path}`, headers: bearer(owner.token), payload: { uuid: device.uuid } });
      for (const path of ['v1/restart', 'v1/purge', `v2/applications/${fleetId}/restart`, `v2/applications/${fleetId}/purge`]) {
        const res = await action(path);
        expect(res.statusCode, path).toBe(400);
        expect(res.json()).toBe('not available in local mode');
      }
      // The fleet-wide restart answers for it in its 207 list without asking it.
      const fleetRestart = await app.inject({ method: 'POST', url: `/application/${fleetId}/restart`, headers: bearer(owner.token) });
      expect(fleetRestart.statusCode).toBe(207);
      expect(fleetRestart.json()).toContainEqual({ deviceId: device.id, status: 400, body: 'not available in local mode' });
      expect(link.actions).toEqual([]);
      expect((await action('v1/reboot')).statusCode).toBe(200);
      // Local mode off ('0'): restart reaches the device again.
      await db.query(`UPDATE device_config_variable SET value = '0' WHERE device = $1`, [device.id]);
      expect((await action('v1/restart')).statusCode).toBe(200);
      expect(link.actions.map((a) => a.action)).toEqual(['reboot', 'restart']);
    } finally {
      await link.close();
    }
  });
});

describe('purge, reboot and shutdown', () => {
  it('are refused until the device is fully provisioned, before anything is sent to it; identify and restart are not', async () => {
    const device = await insertDevice(db, fleetId);
    const link = await TestLink.open(baseUrl, device.key);
    try {
      await eventually(() => isOnline(device.id), (online) => online);
      // Still provisioning: a provisioning progress makes an online device 'configuring'.
      await db.query(`UPDATE device SET provisioning_progress = 50, api_heartbeat_state = 'online' WHERE id = $1`, [device.id]);
      const action = (path: string) => app.inject({ method: 'POST', url: `/supervisor/v1/${path}`, headers: bearer(owner.token), payload: { uuid: device.uuid } });
      for (const path of ['reboot', 'shutdown', 'purge']) {
        const res = await action(path);
        expect(res.statusCode, path).toBe(400);
        expect(res.json()).toBe('Action not supported until fully provisioned');
      }
      const v2 = await app.inject({ method: 'POST', url: `/supervisor/v2/applications/${fleetId}/purge`, headers: bearer(owner.token), payload: { uuid: device.uuid } });
      expect(v2.statusCode).toBe(400);
      expect(link.actions).toEqual([]);

      expect((await action('blink')).statusCode).toBe(200);
      expect((await action('restart')).statusCode).toBe(200);
      expect(link.actions.map((a) => a.action)).toEqual(['blink', 'restart']);

      // Provisioned: the reboot reaches the device.
      await db.query('UPDATE device SET provisioning_progress = NULL WHERE id = $1', [device.id]);
      expect((await action('reboot')).statusCode).toBe(200);
      expect(link.actions.map((a) => a.action)).toEqual(['blink', 'restart', 'reboot']);
    } finally {
      await link.close();
    }
  });
});
