import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.js';
import { RedisBus } from '../../infra/bus/redis.js';
import type { PoolDb } from '../../infra/db/db.js';
import { sweepHeartbeats, HEARTBEAT_SWEEP_JOB } from '../../infra/jobs/heartbeat-sweep.js';
import { MAIL_RETRY_JOB } from '../../infra/jobs/mail-delivery.js';
import { FILE_GARBAGE_JOB } from '../../infra/files/garbage.js';
import { REGISTRY_GARBAGE_JOB } from '../registry/index.js';
import { DEVICE_LOGS_RETENTION_JOB } from '../device-logs/index.js';
import { CREDIT_NOTIFICATION_JOB } from '../billing/credits/index.js';
import { PAST_DUE_JOB, PERIOD_CLOSE_JOB } from '../billing/invoices/index.js';
import { USAGE_LEDGER_JOB } from '../billing/usage/index.js';
import { STRIPE_WEBHOOK_PRUNE_JOB } from '../billing/payments/index.js';
import { bearer, createTestDb, signUp, TEST_JWT_SECRET, type SignedUpUser } from '../../../test/harness.js';
import { createFleet } from '../../../test/support/fleet-helpers.js';
import { eventually, insertDevice, startRedis, TestLink, type RedisServer } from '../../../test/support/cloud-link.js';

/**
 * Many server processes (ARCHITECTURE "Many machines"): two apps, each with its own Redis
 * bus, on one database and one real redis-server. A device linked to A is acted on through
 * B. Plus the durable heartbeat sweep, with an injected clock.
 */

let redis: RedisServer;
let db: PoolDb;
let drop: () => Promise<void>;
const buses: RedisBus[] = [];
let a: FastifyInstance;
let b: FastifyInstance;
let urlA: string;
let owner: SignedUpUser;
let fleetId: number;
let now = new Date('2030-01-01T00:00:00Z');

beforeAll(async () => {
  redis = await startRedis();
  const t = await createTestDb();
  db = t.db;
  drop = t.drop;
  const node = async (jobs: boolean) => {
    const bus = new RedisBus(redis.url);
    await bus.ready();
    buses.push(bus);
    return buildApp({ db, jwtSecret: TEST_JWT_SECRET, bus, ...(jobs ? { clock: () => now.getTime(), jobs: { pollingIntervalSeconds: 0.5 } } : {}) });
  };
  a = await node(false);
  b = await node(true);
  urlA = await a.listen({ port: 0, host: '127.0.0.1' });
  owner = await signUp(b);
  fleetId = await createFleet(b, db, owner, 'MultiNodeFleet');
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  await Promise.all(buses.map((bus) => bus.close()));
  await drop?.();
  await redis?.stop();
});

describe('two server processes on one Redis', () => {
  it('relays an action asked on B to the link held by A, and the answer back', async () => {
    const device = await insertDevice(db, fleetId);
    const link = await TestLink.open(urlA, device.key);
    await eventually(() => db.query('SELECT 1 FROM device WHERE id = $1 AND is_online', [device.id]), (r) => r.rowCount === 1);
    link.answer = (action) => (action.params.force ? { status: 200, body: 'OK' } : { status: 423, body: { Error: 'locked' } });
    const locked = await b.inject({ method: 'POST', url: '/supervisor/v1/reboot', headers: bearer(owner.token), payload: { deviceId: device.id, data: { force: false } } });
    expect(locked.statusCode).toBe(423);
    expect(locked.json()).toEqual({ Error: 'locked' });
    const forced = await b.inject({ method: 'POST', url: '/supervisor/v1/reboot', headers: bearer(owner.token), payload: { deviceId: device.id, data: { force: true } } });
    expect([forced.statusCode, forced.body]).toEqual([200, 'OK']);
    expect(link.actions.map((x) => [x.action, x.params.force])).toEqual([
      ['reboot', false],
      ['reboot', true],
    ]);
    await link.close();
    await eventually(() => db.query('SELECT 1 FROM device WHERE id = $1 AND NOT is_online', [device.id]), (r) => r.rowCount === 1);
  });

  it('tells a device linked to A of a new target written through B', async () => {
    const device = await insertDevice(db, fleetId);
    const link = await TestLink.open(urlA, device.key);
    await eventually(() => db.query('SELECT 1 FROM device WHERE id = $1 AND is_online', [device.id]), (r) => r.rowCount === 1);
    const written = await b.inject({ method: 'POST', url: '/v7/device_environment_variable', headers: bearer(owner.token), payload: { device: device.id, name: 'FROM_B', value: '1' } });
    expect(written.statusCode, written.body).toBe(201);
    await eventually(async () => link.notices.filter((n) => n.type === 'target-changed').length, (n) => n === 1);
    await link.close();
  });

  it('closes the link on A when the device opens a new one on B', async () => {
    const urlB = await b.listen({ port: 0, host: '127.0.0.1' });
    const device = await insertDevice(db, fleetId);
    const onA = await TestLink.open(urlA, device.key);
    await eventually(() => db.query('SELECT 1 FROM device WHERE id = $1 AND is_online', [device.id]), (r) => r.rowCount === 1);
    const closedA = onA.closed();
    const onB = await TestLink.open(urlB, device.key);
    expect(await closedA).toBe(4001);
    const res = await a.inject({ method: 'POST', url: '/supervisor/v1/blink', headers: bearer(owner.token), payload: { uuid: device.uuid } });
    expect(res.statusCode).toBe(200);
    expect([onA.actions.length, onB.actions.length]).toEqual([0, 1]);
    expect((await db.query<{ is_online: boolean }>('SELECT is_online FROM device WHERE id = $1', [device.id])).rows[0]!.is_online).toBe(true);
    await onB.close();
  });
});

describe('the heartbeat sweep', () => {
  // The interval of devices without a poll-interval variable (the default is 10 minutes; 15 s keeps the clock arithmetic short).
  const FALLBACK_MS = 15_000;
  const state = async (id: number) => (await db.query<{ s: string }>('SELECT api_heartbeat_state AS s FROM device WHERE id = $1', [id])).rows[0]!.s;

  it('moves a device that stopped polling from online to timeout to offline', async () => {
    const device = await insertDevice(db, fleetId);
    const polledAt = new Date('2030-01-01T00:00:00Z');
    await db.query(`UPDATE device SET api_heartbeat_at = $2, api_heartbeat_state = 'online' WHERE id = $1`, [device.id, polledAt]);
    const at = (seconds: number) => new Date(polledAt.getTime() + seconds * 1000);
    // A fallback poll interval of 15 s with a third's grace: online to 19.95 s, timeout to 39.9 s.
    await sweepHeartbeats(db, at(19), FALLBACK_MS);
    expect(await state(device.id)).toBe('online');
    await sweepHeartbeats(db, at(25), FALLBACK_MS);
    expect(await state(device.id)).toBe('timeout');
    await sweepHeartbeats(db, at(45), FALLBACK_MS);
    expect(await state(device.id)).toBe('offline');
  });

  it('keeps a device that polled within its window online and a never-polled one unknown', async () => {
    const device = await insertDevice(db, fleetId);
    await db.query(`UPDATE device SET api_heartbeat_at = $2, api_heartbeat_state = 'online' WHERE id = $1`, [device.id, new Date('2030-01-01T00:00:00Z')]);
    // Never polled devices stay unknown; a fresh poll keeps a device online.
    const never = await insertDevice(db, fleetId);
    expect(await sweepHeartbeats(db, new Date('2030-01-01T00:00:10Z'), FALLBACK_MS)).toBe(0);
    expect([await state(device.id), await state(never.id)]).toEqual(['online', 'unknown']);
  });

  it("judges each device on its own poll interval: the device's config variable, else its fleet's, else the default", async () => {
    // Fleets of their own, so their config variables touch no other case's devices.
    const slowFleet = await createFleet(b, db, owner, 'SlowPollFleet');
    const legacyFleet = await createFleet(b, db, owner, 'LegacyPollFleet');
    await db.query(`INSERT INTO application_config_variable (application, name, value) VALUES ($1, 'BALENA_SUPERVISOR_POLL_INTERVAL', '60000')`, [slowFleet]);
    await db.query(`INSERT INTO application_config_variable (application, name, value) VALUES ($1, 'RESIN_SUPERVISOR_POLL_INTERVAL', '120000')`, [legacyFleet]);
    const fleetPaced = await insertDevice(db, slowFleet); // 60 s: online to 79.8 s
    const devicePaced = await insertDevice(db, slowFleet); // its own 30 s: online to 39.9 s
    await db.query(`INSERT INTO device_config_variable (device, name, value) VALUES ($1, 'BALENA_SUPERVISOR_POLL_INTERVAL', '30000')`, [devicePaced.id]);
    const legacyPaced = await insertDevice(db, legacyFleet); // RESIN_ 120 s: online to 159.6 s
    const unreadable = await insertDevice(db, legacyFleet); // 'soon' overrides the fleet's and is ignored: the fallback 15 s
    await db.query(`INSERT INTO device_config_variable (device, name, value) VALUES ($1, 'RESIN_SUPERVISOR_POLL_INTERVAL', 'soon')`, [unreadable.id]);
    const defaultPaced = await insertDevice(db, fleetId); // the fallback 15 s: online to 19.95 s
    const all = [fleetPaced, devicePaced, legacyPaced, unreadable, defaultPaced];
    const polledAt = new Date('2031-06-01T00:00:00Z');
    await db.query(`UPDATE device SET api_heartbeat_at = $2, api_heartbeat_state = 'online' WHERE id = ANY($1)`, [all.map((d) => d.id), polledAt]);
    const at = (seconds: number) => new Date(polledAt.getTime() + seconds * 1000);
    const states = async () => Promise.all(all.map((d) => state(d.id)));

    await sweepHeartbeats(db, at(25), FALLBACK_MS);
    expect(await states()).toEqual(['online', 'online', 'online', 'timeout', 'timeout']);
    await sweepHeartbeats(db, at(60), FALLBACK_MS);
    expect(await states()).toEqual(['online', 'timeout', 'online', 'offline', 'offline']);
    await sweepHeartbeats(db, at(100), FALLBACK_MS);
    expect(await states()).toEqual(['timeout', 'offline', 'online', 'offline', 'offline']);
    await sweepHeartbeats(db, at(200), FALLBACK_MS);
    expect(await states()).toEqual(['offline', 'offline', 'timeout', 'offline', 'offline']);
  });

  it('runs as a durable job with the injected clock', async () => {
    const device = await insertDevice(db, fleetId);
    await db.query(`UPDATE device SET api_heartbeat_at = $2, api_heartbeat_state = 'online' WHERE id = $1`, [device.id, new Date('2030-01-01T00:00:00Z')]);
    // The default interval (10 min) with its grace: offline after 26.6 minutes without a poll.
    now = new Date('2030-01-01T00:30:00Z');
    const id = await b.jobs!.send(HEARTBEAT_SWEEP_JOB);
    expect(id).toEqual(expect.any(String));
    await eventually(() => b.jobs!.stateOf(HEARTBEAT_SWEEP_JOB, id!), (s) => s === 'completed', 15_000);
    expect(await state(device.id)).toBe('offline');
    const schedules = await db.query<{ name: string; cron: string }>('SELECT name, cron FROM pgboss.schedule ORDER BY name');
    expect(schedules.rows).toEqual([
      { name: CREDIT_NOTIFICATION_JOB, cron: '* * * * *' },
      { name: PAST_DUE_JOB, cron: '20 0 * * *' },
      { name: PERIOD_CLOSE_JOB, cron: '5 0 * * *' },
      { name: STRIPE_WEBHOOK_PRUNE_JOB, cron: '23 4 * * *' },
      { name: USAGE_LEDGER_JOB, cron: '*/15 * * * *' },
      { name: DEVICE_LOGS_RETENTION_JOB, cron: '* * * * *' },
      { name: FILE_GARBAGE_JOB, cron: '* * * * *' },
      { name: HEARTBEAT_SWEEP_JOB, cron: '* * * * *' },
      { name: MAIL_RETRY_JOB, cron: '* * * * *' },
      { name: REGISTRY_GARBAGE_JOB, cron: '* * * * *' },
    ]);
  });
});

describe('RedisBus', () => {
  it('delivers a JSON copy to every subscriber on every connection, and stops after unsubscribe', async () => {
    const one = new RedisBus(redis.url);
    const two = new RedisBus(redis.url);
    try {
      const got: unknown[] = [];
      const offFirst = await one.subscribe('test:bus', (m) => got.push(['one', m]));
      await one.subscribe('test:bus', (m) => got.push(['one-again', m]));
      await two.subscribe('test:bus', (m) => got.push(['two', m]));
      await two.publish('test:bus', { when: new Date(0), n: 1 });
      await eventually(async () => got.length, (n) => n === 3);
      expect(got).toEqual(
        expect.arrayContaining([
          ['one', { when: '1970-01-01T00:00:00.000Z', n: 1 }],
          ['one-again', { when: '1970-01-01T00:00:00.000Z', n: 1 }],
          ['two', { when: '1970-01-01T00:00:00.000Z', n: 1 }],
        ]),
      );
      await offFirst();
      got.length = 0;
      // How many processes (connections) received it: both still subscribe.
      expect(await one.publish('test:bus', 2)).toBe(2);
      await eventually(async () => got.length, (n) => n === 2);
      expect((got as [string, unknown][]).map(([who]) => who).sort()).toEqual(['one-again', 'two']);
      expect(await one.publish('test:nobody', 3)).toBe(0);
    } finally {
      await one.close();
      await two.close();
    }
  });
});
