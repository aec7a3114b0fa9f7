import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.js';
import { RedisBus } from '../../infra/bus/redis.js';
import type { Db, PoolDb } from '../../infra/db/db.js';
import { API_KEYS_CHANGED } from '../../infra/auth/api-key-cache.js';
import { StateReportBatch } from './state-report-batch.js';
import { createTestDb, signUp, TEST_JWT_SECRET, type SignedUpUser } from '../../../test/harness.js';
import { createFleet, hex, requester, row } from '../../../test/support/fleet-helpers.js';
import { eventually, insertDevice, startRedis, type RedisServer } from '../../../test/support/cloud-link.js';

// Issue 5 benchmarks: the caches and the group commit behind the device API's speed must
// not change what it answers. API keys are cached per process and revoked at once (on this
// process by the write itself, on the others through the bus); a cached poll reads no
// database; concurrent state reports share one transaction, yet each answers for itself.
let redis: RedisServer;
let db: PoolDb;
let drop: () => Promise<void>;
let bus: RedisBus;
let otherProcess: RedisBus;
let app: FastifyInstance;
let req: ReturnType<typeof requester>;
let owner: SignedUpUser;
let fleet: number;

beforeAll(async () => {
  redis = await startRedis();
  ({ db, drop } = await createTestDb());
  bus = new RedisBus(redis.url);
  otherProcess = new RedisBus(redis.url);
  await Promise.all([bus.ready(), otherProcess.ready()]);
  app = await buildApp({ db, jwtSecret: TEST_JWT_SECRET, bus });
  req = requester(app);
  owner = await signUp(app);
  fleet = await createFleet(app, db, owner, 'CachingFleet');
});
afterAll(async () => {
  await app?.close();
  await Promise.all([bus?.close(), otherProcess?.close()]);
  await drop?.();
  await redis?.stop();
});

const poll = (key: string, uuid: string, etag?: string) =>
  app.inject({ method: 'GET', url: `/device/v3/${uuid}/state`, headers: { authorization: `Bearer ${key}`, ...(etag ? { 'if-none-match': etag } : {}) } });
const report = (key: string, body: object) => req(key, 'PATCH', '/device/v3/state', body);

/** Runs `fn` while counting the queries `db` is sent (the heartbeat batch's excepted). */
async function countQueries<T>(target: Db, fn: () => Promise<T>): Promise<{ result: T; queries: string[] }> {
  const queries: string[] = [];
  const original = target.query.bind(target);
  target.query = ((sql: string, ...rest: unknown[]) => {
    if (!sql.includes('api_heartbeat_at')) queries.push(sql);
    return (original as (...a: unknown[]) => unknown)(sql, ...rest);
  }) as Db['query'];
  try {
    return { result: await fn(), queries };
  } finally {
    target.query = original;
  }
}

describe('the API key cache', () => {
  it('answers an unchanged poll with a cached key and state, without reading the database', async () => {
    const d = await insertDevice(db, fleet);
    const first = await poll(d.key, d.uuid);
    expect(first.statusCode, first.body).toBe(200);
    const { result, queries } = await countQueries(db, () => poll(d.key, d.uuid, first.headers.etag as string));
    expect(result.statusCode).toBe(304);
    expect(queries).toEqual([]);
  });

  it('stops a deleted device key at once on this process', async () => {
    const d = await insertDevice(db, fleet);
    expect((await poll(d.key, d.uuid)).statusCode).toBe(200);
    const del = await req(owner.token, 'DELETE', `/v7/device(${d.id})`);
    expect(del.statusCode, del.body).toBe(200);
    // The poll no longer authenticates: a deleted device is told 304 without a state (a
    // cached key would have been answered 200 with its state), and reports are refused.
    const after = await poll(d.key, d.uuid);
    expect(after.statusCode).toBe(304);
    expect(after.body).toBe('');
    expect((await req(d.key, 'PATCH', '/device/v3/state', { [d.uuid]: { os_version: 'x' } })).statusCode).toBe(401);
  });

  it('stops a revoked provisioning key at once on this process', async () => {
    const key: string = (await req(owner.token, 'POST', '/api-key/v2/', { actorType: 'application', actorTypeId: fleet, roles: ['provisioning-api-key'] })).json();
    const register = () => req(key, 'POST', '/device/register', { application: fleet, uuid: hex(), device_type: 'raspberrypi3' });
    expect((await register()).statusCode).toBe(201);
    const id = (await row<{ id: number }>(db, `SELECT k.id FROM api_key k JOIN application a ON a.actor = k.is_of__actor WHERE a.id = $1 ORDER BY k.id DESC LIMIT 1`, [fleet]))!.id;
    const del = await req(owner.token, 'DELETE', `/v7/api_key(${id})`);
    expect(del.statusCode, del.body).toBe(200);
    expect((await register()).statusCode).toBe(401);
  });

  it('stops a cached key once its expiry date passes', async () => {
    const d = await insertDevice(db, fleet);
    const actor = (await row<{ actor: number }>(db, 'SELECT actor FROM device WHERE id = $1', [d.id]))!.actor;
    await db.query(`UPDATE api_key SET expiry_date = now() + interval '400 milliseconds' WHERE is_of__actor = $1`, [actor]);
    app.authenticator.apiKeys.drop({ actorIds: [actor] }); // whatever was cached before the expiry date was set
    expect((await poll(d.key, d.uuid)).statusCode).toBe(200); // cached now, with its expiry date
    await new Promise((r) => setTimeout(r, 500));
    expect((await poll(d.key, d.uuid)).statusCode).toBe(401);
  });

  it("drops keys another process revoked when the bus says so", async () => {
    const d = await insertDevice(db, fleet);
    expect((await poll(d.key, d.uuid)).statusCode).toBe(200);
    // Another process deleted the key: this process learns it only from the bus.
    const actor = (await row<{ actor: number }>(db, 'SELECT actor FROM device WHERE id = $1', [d.id]))!.actor;
    await db.query('DELETE FROM api_key WHERE is_of__actor = $1', [actor]);
    expect((await poll(d.key, d.uuid)).statusCode).toBe(200); // still cached: the write bypassed the rules
    await otherProcess.publish(API_KEYS_CHANGED, { actorIds: [actor] });
    await eventually(() => poll(d.key, d.uuid), (res) => res.statusCode === 401);
  });

  it('drops every cached key and target state once the bus is back from a lost connection', async () => {
    const [revoked, renamed] = [await insertDevice(db, fleet), await insertDevice(db, fleet)];
    expect((await poll(revoked.key, revoked.uuid)).statusCode).toBe(200);
    const first = await poll(renamed.key, renamed.uuid);
    expect(first.statusCode).toBe(200);
    // Changes whose messages the bus lost (here: made past the application, so none was sent).
    const actor = (await row<{ actor: number }>(db, 'SELECT actor FROM device WHERE id = $1', [revoked.id]))!.actor;
    await db.query('DELETE FROM api_key WHERE is_of__actor = $1', [actor]);
    await db.query(`UPDATE device SET device_name = 'renamed-while-the-bus-was-down' WHERE id = $1`, [renamed.id]);
    expect((await poll(revoked.key, revoked.uuid)).statusCode).toBe(200); // still cached
    expect((await poll(renamed.key, renamed.uuid, first.headers.etag as string)).statusCode).toBe(304); // still cached
    // Redis drops the subscriber connections; ioredis connects again and subscribes again.
    const { Redis } = await import('ioredis');
    const admin = new Redis(redis.url);
    try {
      expect(await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub')).toBeGreaterThan(0);
    } finally {
      admin.disconnect();
    }
    await eventually(() => poll(revoked.key, revoked.uuid), (res) => res.statusCode === 401);
    const after = await poll(renamed.key, renamed.uuid, first.headers.etag as string);
    expect(after.statusCode).toBe(200);
    expect(after.body).toContain('renamed-while-the-bus-was-down');
    // The bus still delivers after the reconnection.
    const d = await insertDevice(db, fleet);
    expect((await poll(d.key, d.uuid)).statusCode).toBe(200);
    const other = (await row<{ actor: number }>(db, 'SELECT actor FROM device WHERE id = $1', [d.id]))!.actor;
    await db.query('DELETE FROM api_key WHERE is_of__actor = $1', [other]);
    await otherProcess.publish(API_KEYS_CHANGED, { actorIds: [other] });
    await eventually(() => poll(d.key, d.uuid), (res) => res.statusCode === 401);
  });
});

describe('grouped state reports', () => {
  it('writes concurrent reports in fewer transactions than requests, each stored when answered', async () => {
    const devices = await Promise.all(Array.from({ length: 12 }, () => insertDevice(db, fleet)));
    let transactions = 0;
    const tx = db.tx.bind(db);
    db.tx = ((fn: Parameters<Db['tx']>[0]) => {
      transactions++;
      return tx(fn);
    }) as Db['tx'];
    try {
      const answers = await Promise.all(devices.map((d, i) => report(d.key, { [d.uuid]: { status: `s${i}`, cpu_usage: i } })));
      expect(answers.map((a) => a.statusCode)).toEqual(devices.map(() => 200));
    } finally {
      db.tx = tx;
    }
    expect(transactions).toBeLessThan(devices.length);
    const rows = (await db.query<{ id: number; status: string; cpu_usage: number }>('SELECT id, status, cpu_usage FROM device WHERE id = ANY($1::int[]) ORDER BY id', [devices.map((d) => d.id)])).rows;
    expect(rows).toEqual(devices.map((d, i) => ({ id: d.id, status: `s${i}`, cpu_usage: i })).sort((a, b) => a.id - b.id));
  });

  it('fails only the report at fault: a refused one, a bad value, a write the database rejects', async () => {
    const [good1, good2, other, bad, rejected] = await Promise.all(Array.from({ length: 5 }, () => insertDevice(db, fleet)));
    const answers = await Promise.all([
      report(good1!.key, { [good1!.uuid]: { status: 'fine-1' } }),
      report(other!.key, { [good1!.uuid]: { status: 'hijack' } }),
      report(bad!.key, { [bad!.uuid]: { status: 'bad', cpu_usage: 'lots' } }),
      // is_undervolted is NOT NULL: the database refuses this one, inside the group's statement
      // (a client error since issue 11: 400, not 500).
      report(rejected!.key, { [rejected!.uuid]: { status: 'rejected', is_undervolted: null } }),
      report(good2!.key, { [good2!.uuid]: { status: 'fine-2' } }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 403, 400, 400, 200]);
    const status = async (id: number) => (await row<{ status: string | null }>(db, 'SELECT status FROM device WHERE id = $1', [id]))!.status;
    expect(await Promise.all([good1, other, bad, rejected, good2].map((d) => status(d!.id)))).toEqual(['fine-1', null, null, null, 'fine-2']);
  });

  it("fails only the report whose installs the database rejects; its device fields stay unwritten", async () => {
    const [good, bad] = await Promise.all([insertDevice(db, fleet), insertDevice(db, fleet)]);
    const appUuid = (await row<{ uuid: string }>(db, 'SELECT uuid FROM application WHERE id = $1', [fleet]))!.uuid;
    const commit = hex();
    const release = (await db.query<{ id: number }>(`INSERT INTO release (belongs_to__application, commit, status, composition) VALUES ($1, $2, 'success', '{}') RETURNING id`, [fleet, commit])).rows[0]!.id;
    const service = (await db.query<{ id: number }>('INSERT INTO service (application, service_name) VALUES ($1, $2) RETURNING id', [fleet, `svc${hex(3)}`])).rows[0]!;
    const image = (await db.query<{ id: number }>(`INSERT INTO image (is_a_build_of__service, status, is_stored_at__image_location) VALUES ($1, 'success', 'registry.test/x') RETURNING id`, [service.id])).rows[0]!.id;
    await db.query('INSERT INTO image__is_part_of__release (image, is_part_of__release) VALUES ($1, $2)', [image, release]);
    const name = (await row<{ service_name: string }>(db, 'SELECT service_name FROM service WHERE id = $1', [service.id]))!.service_name;
    const withInstall = (d: { uuid: string }, status: string, progress: number) => ({
      [d.uuid]: { status, apps: { [appUuid]: { releases: { [commit]: { services: { [name]: { image: 'x', status: 'Downloading', download_progress: progress } } } } } } },
    });
    const answers = await Promise.all([
      report(good.key, withInstall(good, 'installing', 10)),
      // download_progress is an integer column: this one is out of its range (refused with
      // 400 since issue 11, never handed to the database).
      report(bad.key, withInstall(bad, 'overflow', 1e12)),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 400]);
    expect(await row(db, 'SELECT status FROM device WHERE id = $1', [good.id])).toEqual({ status: 'installing' });
    expect(await row(db, 'SELECT status FROM device WHERE id = $1', [bad.id])).toEqual({ status: null });
    expect((await db.query('SELECT download_progress FROM image_install WHERE device = ANY($1::int[]) ORDER BY device', [[good.id, bad.id]])).rows).toEqual([{ download_progress: 10 }]);
  });

  it("writes the installs of many devices' reports in one group: each device's own images, its unlisted ones deleted, its running release", async () => {
    const appUuid = (await row<{ uuid: string }>(db, 'SELECT uuid FROM application WHERE id = $1', [fleet]))!.uuid;
    const commit = hex();
    const release = (await db.query<{ id: number }>(`INSERT INTO release (belongs_to__application, commit, status, composition) VALUES ($1, $2, 'success', '{}') RETURNING id`, [fleet, commit])).rows[0]!.id;
    const services = await Promise.all(
      ['web', 'db'].map(async (base) => {
        const name = `${base}${hex(3)}`;
        const service = (await db.query<{ id: number }>('INSERT INTO service (application, service_name) VALUES ($1, $2) RETURNING id', [fleet, name])).rows[0]!.id;
        const image = (await db.query<{ id: number }>(`INSERT INTO image (is_a_build_of__service, status, is_stored_at__image_location) VALUES ($1, 'success', 'registry.test/x') RETURNING id`, [service])).rows[0]!.id;
        await db.query('INSERT INTO image__is_part_of__release (image, is_part_of__release) VALUES ($1, $2)', [image, release]);
        return { name, service, image };
      }),
    );
    const [web, dbService] = services as [(typeof services)[number], (typeof services)[number]];
    const devices = await Promise.all(Array.from({ length: 4 }, () => insertDevice(db, fleet)));
    await db.query('UPDATE device SET is_pinned_on__release = $2 WHERE id = ANY($1::int[])', [devices.map((d) => d.id), release]);
    // Device 3 had an install of another image, which its report no longer lists.
    const stale = (await db.query<{ id: number }>(`INSERT INTO image (is_a_build_of__service, status, is_stored_at__image_location) VALUES ($1, 'success', 'registry.test/old') RETURNING id`, [web.service])).rows[0]!.id;
    await db.query(`INSERT INTO image_install (device, installs__image, status) VALUES ($1, $2, 'Running')`, [devices[3]!.id, stale]);
    const reportOf = (d: { uuid: string }, statuses: Record<string, string>, progress?: number) => ({
      [d.uuid]: {
        status: 'Idle',
        apps: { [appUuid]: { releases: { [commit]: { services: Object.fromEntries(Object.entries(statuses).map(([n, status]) => [n, { image: 'x', status, ...(progress === undefined ? {} : { download_progress: progress }) }])) } } } },
      },
    });
    const batch = new StateReportBatch(db);
    await Promise.all([
      batch.submit(devices[0]!.id, reportOf(devices[0]!, { [web.name]: 'Running', [dbService.name]: 'Running' })),
      batch.submit(devices[1]!.id, reportOf(devices[1]!, { [web.name]: 'Running', [dbService.name]: 'Downloading' }, 40)),
      batch.submit(devices[2]!.id, reportOf(devices[2]!, { [web.name]: 'Running', unknown: 'Running' })),
      batch.submit(devices[3]!.id, reportOf(devices[3]!, { [web.name]: 'Running', [dbService.name]: 'Running' })),
    ]);
    const installs = (
      await db.query<{ device: number; image: number; status: string; download_progress: number | null }>(
        'SELECT device, installs__image AS image, status, download_progress FROM image_install WHERE device = ANY($1::int[]) ORDER BY device, installs__image',
        [devices.map((d) => d.id)],
      )
    ).rows;
    const [d0, d1, d2, d3] = devices.map((d) => d.id) as [number, number, number, number];
    expect(installs).toEqual(
      [
        { device: d0, image: web.image, status: 'Running', download_progress: null },
        { device: d0, image: dbService.image, status: 'Running', download_progress: null },
        { device: d1, image: web.image, status: 'Running', download_progress: 40 },
        { device: d1, image: dbService.image, status: 'Downloading', download_progress: 40 },
        { device: d2, image: web.image, status: 'Running', download_progress: null },
        { device: d3, image: web.image, status: 'Running', download_progress: null },
        { device: d3, image: dbService.image, status: 'Running', download_progress: null },
        { device: d3, image: stale, status: 'deleted', download_progress: null },
      ].sort((a, b) => a.device - b.device || a.image - b.image),
    );
    const serviceInstalls = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM service_install WHERE device = ANY($1::int[])', [devices.map((d) => d.id)])).rows[0]!.n;
    expect(serviceInstalls).toBe(7);
    // Running its target release: only the devices whose every image of it runs.
    const running = (await db.query<{ id: number; is_running__release: number | null }>('SELECT id, is_running__release FROM device WHERE id = ANY($1::int[]) ORDER BY id', [devices.map((d) => d.id)])).rows;
    expect(running).toEqual([d0, d1, d2, d3].sort((a, b) => a - b).map((id) => ({ id, is_running__release: id === d0 || id === d3 ? release : null })));
  });

  it("applies one device's reports in the order they came", async () => {
    const d = await insertDevice(db, fleet);
    const batch = new StateReportBatch(db);
    const sent = ['first', 'second', 'third'].map((s) => batch.submit(d.id, { [d.uuid]: { status: s } }));
    await Promise.all(sent);
    expect(await row(db, 'SELECT status FROM device WHERE id = $1', [d.id])).toEqual({ status: 'third' });
  });

  it("writes another device's group while one is slow, and holds a device's next report until its first is written", async () => {
    const [slow, quick] = await Promise.all([insertDevice(db, fleet), insertDevice(db, fleet)]);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let transactions = 0;
    // The first group's transaction waits for the gate: a group slow to write.
    const gated = new Proxy(db, {
      get(target, key) {
        if (key === 'tx') return (fn: Parameters<Db['tx']>[0]) => (++transactions === 1 ? gate.then(() => target.tx(fn)) : target.tx(fn));
        const value = Reflect.get(target, key) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    }) as Db;
    const batch = new StateReportBatch(gated);
    const first = batch.submit(slow.id, { [slow.uuid]: { status: 'slow-1' } });
    await new Promise((r) => setImmediate(r)); // the first group starts and waits at the gate
    const second = batch.submit(slow.id, { [slow.uuid]: { status: 'slow-2' } });
    const other = batch.submit(quick.id, { [quick.uuid]: { status: 'quick' } });
    const within = (p: Promise<unknown>, ms: number) => Promise.race([p.then(() => 'written'), new Promise((r) => setTimeout(() => r('waiting'), ms))]);
    expect(await within(other, 5_000)).toBe('written');
    expect(await row(db, 'SELECT status FROM device WHERE id = $1', [quick.id])).toEqual({ status: 'quick' });
    // The slow device's second report did not overtake its first.
    expect(await within(second, 200)).toBe('waiting');
    expect(await row(db, 'SELECT status FROM device WHERE id = $1', [slow.id])).toEqual({ status: null });
    open();
    await Promise.all([first, second]);
    expect(await row(db, 'SELECT status FROM device WHERE id = $1', [slow.id])).toEqual({ status: 'slow-2' });
  });

  it('rejects a report that is not an object before queueing it', async () => {
    const d = await insertDevice(db, fleet);
    const res = await report(d.key, [] as unknown as object);
    expect(res.statusCode).toBe(400);
  });
});
