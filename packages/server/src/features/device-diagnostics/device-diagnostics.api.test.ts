import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ACTION_RUN_LIMITS, type ActionRun } from '@flotilla/model';
import { buildApp } from '../../app.js';
import { RedisBus } from '../../infra/bus/redis.js';
import type { PoolDb } from '../../infra/db/db.js';
import { bearer, createTestDb, signUp, TEST_JWT_SECRET, type SignedUpUser } from '../../../test/harness.js';
import { createFleet, giveFleetRole } from '../../../test/support/fleet-helpers.js';
import { eventually, insertDevice, startRedis, TestLink, type RedisServer, type TestDevice } from '../../../test/support/cloud-link.js';

/**
 * The actions service (spec 2 §7, issue 15 item 3) over the cloud link, with a test device
 * holding the link (its answers are the test's to choose: held back, dropped, malformed).
 * Two server processes on one Redis and one database: the device is linked to A; runs are
 * started and read on either. The real agent's checks and diagnose are in
 * test/agent-diagnostics.api.test.ts.
 */

let redis: RedisServer;
let db: PoolDb;
let drop: () => Promise<void>;
const buses: RedisBus[] = [];
let a: FastifyInstance;
let b: FastifyInstance;
let urlA: string;
let owner: SignedUpUser;
let observer: SignedUpUser;
let operator: SignedUpUser;
let stranger: SignedUpUser;
let fleetId: number;
const TIMEOUT_MS = 1_500;

beforeAll(async () => {
  redis = await startRedis();
  const t = await createTestDb();
  db = t.db;
  drop = t.drop;
  const node = async () => {
    const bus = new RedisBus(redis.url);
    await bus.ready();
    buses.push(bus);
    return buildApp({ db, jwtSecret: TEST_JWT_SECRET, bus, diagnosticsTimeoutMs: TIMEOUT_MS });
  };
  a = await node();
  b = await node();
  urlA = await a.listen({ port: 0, host: '127.0.0.1' });
  owner = await signUp(b);
  fleetId = await createFleet(b, db, owner, 'DiagnosticsFleet');
  observer = await signUp(b);
  operator = await signUp(b);
  await giveFleetRole(db, owner.orgId, fleetId, observer, 'observer');
  await giveFleetRole(db, owner.orgId, fleetId, operator, 'operator');
  stranger = await signUp(b);
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  await Promise.all(buses.map((bus) => bus.close()));
  await drop?.();
  await redis?.stop();
});

async function linked(): Promise<{ device: TestDevice; link: TestLink }> {
  const device = await insertDevice(db, fleetId);
  const link = await TestLink.open(urlA, device.key);
  await eventually(() => db.query('SELECT 1 FROM device WHERE id = $1 AND is_online', [device.id]), (r) => r.rowCount === 1);
  return { device, link };
}

const url = (uuid: string, action: string) => `/actions/v1/${uuid}/${action}`;
const get = (app: FastifyInstance, token: string, uuid: string, action: string) => app.inject({ method: 'GET', url: url(uuid, action), headers: bearer(token) });
const start = (app: FastifyInstance, token: string, uuid: string, action: string, payload: unknown = { params: {} }) =>
  app.inject({ method: 'POST', url: url(uuid, action), headers: { ...bearer(token), 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
const run = async (app: FastifyInstance, uuid: string, action: string): Promise<ActionRun> => (await get(app, owner.token, uuid, action)).json();
const finished = (app: FastifyInstance, uuid: string, action: string) => eventually(() => run(app, uuid, action), (r) => r.status === 'done' || r.status === 'error', 10_000);

const CHECKS = { checks: [{ name: 'check_container_engine', success: true, status: 'The container engine answers (version 4.3.1)' }], diagnose_version: '1.0.0' };

describe('the actions service', () => {
  it('answers idle with nulls for an action never run', async () => {
    const { device, link } = await linked();
    const res = await get(a, owner.token, device.uuid, 'checks');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'idle', stdout: null, error: null, lastRun: null });
    await link.close();
  });

  it('runs health checks: 202 in_progress, the device gets the action, then done with its checks', async () => {
    const { device, link } = await linked();
    let reply: (() => void) | undefined;
    link.answer = (action) => {
      reply = () => link.ws.send(JSON.stringify({ type: 'result', id: action.id, status: 200, body: { Data: CHECKS, Error: null } }));
      return null;
    };
    const res = await start(a, owner.token, device.uuid, 'checks', { params: { verbose: true } });
    expect(res.statusCode, res.body).toBe(202);
    const started = res.json<ActionRun>();
    expect(started).toMatchObject({ status: 'in_progress', stdout: null, error: null });
    expect(Date.parse(started.lastRun!)).not.toBeNaN();
    await eventually(async () => link.actions.length, (n) => n === 1);
    expect(link.actions[0]).toMatchObject({ action: 'health-checks', params: { verbose: true } });
    expect((await run(a, device.uuid, 'checks')).status).toBe('in_progress');
    // 409 while it runs (on either process).
    const again = await start(b, owner.token, device.uuid, 'checks');
    expect([again.statusCode, again.json()]).toEqual([409, 'A run of this action is already in progress on this device']);
    reply!();
    expect(await finished(a, device.uuid, 'checks')).toEqual({ status: 'done', stdout: CHECKS, error: null, lastRun: started.lastRun });
    await link.close();
  });

  it('a run started through process B (device linked to A) is read through A and B alike', async () => {
    const { device, link } = await linked();
    link.answer = () => ({ status: 200, body: { Data: { stdout: 'engine: 4.3.1\ncontainers: main', stderr: 'routes: unreadable' }, Error: null } });
    const res = await start(b, owner.token, device.uuid, 'diagnose', {});
    expect(res.statusCode, res.body).toBe(202);
    const done = await finished(a, device.uuid, 'diagnose');
    expect(done).toMatchObject({ status: 'done', stdout: 'engine: 4.3.1\ncontainers: main', error: 'routes: unreadable' });
    expect(await run(b, device.uuid, 'diagnose')).toEqual(done);
    // A new run replaces the finished one.
    const next = await start(a, owner.token, device.uuid, 'diagnose');
    expect(next.statusCode).toBe(202);
    await finished(b, device.uuid, 'diagnose');
    expect(link.actions.map((x) => x.action)).toEqual(['diagnose', 'diagnose']);
    await link.close();
  });

  it('accepts an absent body (diagnose with empty params)', async () => {
    const { device, link } = await linked();
    const res = await a.inject({ method: 'POST', url: url(device.uuid, 'diagnose'), headers: bearer(owner.token) });
    expect(res.statusCode, res.body).toBe(202);
    await finished(a, device.uuid, 'diagnose');
    expect(link.actions[0]?.params).toEqual({});
    await link.close();
  });

  it('ends the run in error when the device drops its link mid-run, and it can run again', async () => {
    const { device, link } = await linked();
    link.answer = () => null;
    expect((await start(a, owner.token, device.uuid, 'diagnose')).statusCode).toBe(202);
    await eventually(async () => link.actions.length, (n) => n === 1);
    link.ws.terminate();
    const failed = await finished(a, device.uuid, 'diagnose');
    expect(failed.status).toBe('error');
    expect(failed.error).toBe('The device disconnected during the run. Run it again once it is back online');
    // Offline now: a new run is refused with the spec's words.
    await eventually(() => db.query('SELECT 1 FROM device WHERE id = $1 AND NOT is_online', [device.id]), (r) => r.rowCount === 1);
    const offline = await start(a, owner.token, device.uuid, 'diagnose');
    expect([offline.statusCode, offline.json()]).toEqual([400, 'device must be online']);
    expect((await run(a, device.uuid, 'diagnose')).error).toBe(failed.error);
  });

  it('ends the run in error when the device does not answer in time', async () => {
    const { device, link } = await linked();
    link.answer = () => null;
    expect((await start(a, owner.token, device.uuid, 'checks')).statusCode).toBe(202);
    const failed = await finished(a, device.uuid, 'checks');
    expect(failed).toMatchObject({ status: 'error', stdout: null });
    expect(failed.error).toMatch(/^The device did not answer within 2 s\. Check that it is online/);
    await link.close();
  });

  it("stores the device's refusal and a malformed answer as errors", async () => {
    const { device, link } = await linked();
    link.answer = () => ({ status: 501, body: { Data: null, Error: 'health-checks is not supported by this agent' } });
    await start(a, owner.token, device.uuid, 'checks');
    expect((await finished(a, device.uuid, 'checks')).error).toMatch(/agent cannot run health checks\. Update the agent/);
    link.answer = () => ({ status: 200, body: { Data: { checks: 'nope' }, Error: null } });
    await start(a, owner.token, device.uuid, 'checks');
    expect((await finished(a, device.uuid, 'checks')).error).toMatch(/shape this server does not know/);
    await link.close();
  });

  it('cuts a long diagnose stdout with a note', async () => {
    const { device, link } = await linked();
    link.answer = () => ({ status: 200, body: { Data: { stdout: 'x'.repeat(ACTION_RUN_LIMITS.maxStdoutChars + 5_000), stderr: '' }, Error: null } });
    await start(a, owner.token, device.uuid, 'diagnose');
    const done = await finished(a, device.uuid, 'diagnose');
    expect(done.status).toBe('done');
    expect((done.stdout as string).length).toBeLessThanOrEqual(ACTION_RUN_LIMITS.maxStdoutChars);
    expect(done.stdout).toMatch(/cut by the server: \d+ more characters not stored/);
    expect(done.error).toBeNull();
    await link.close();
  });
});

describe('who may run diagnostics, and bad input', () => {
  it('an operator may; an observer gets 403; another organization 404; anonymous 401', async () => {
    const { device, link } = await linked();
    expect((await start(a, operator.token, device.uuid, 'checks')).statusCode).toBe(202);
    await finished(a, device.uuid, 'checks');
    for (const res of [await get(a, observer.token, device.uuid, 'checks'), await start(a, observer.token, device.uuid, 'checks')]) {
      expect([res.statusCode, res.json()]).toEqual([403, "You don't have the required permission for this action"]);
    }
    for (const res of [await get(a, stranger.token, device.uuid, 'checks'), await start(a, stranger.token, device.uuid, 'checks')]) {
      expect([res.statusCode, res.json()]).toEqual([404, 'Device not found']);
    }
    expect((await a.inject({ method: 'GET', url: url(device.uuid, 'checks') })).statusCode).toBe(401);
    expect((await a.inject({ method: 'POST', url: url(device.uuid, 'checks'), payload: {} })).statusCode).toBe(401);
    // A device key is no user: it may not run diagnostics, not even on itself.
    expect((await get(a, device.key, device.uuid, 'checks')).statusCode).toBe(403);
    expect(link.actions).toHaveLength(1);
    await link.close();
  });

  it('refuses unknown actions and devices (404), oversized or malformed params (400), huge bodies (413)', async () => {
    const { device, link } = await linked();
    expect((await get(a, owner.token, device.uuid, 'reboot')).statusCode).toBe(404);
    expect((await start(a, owner.token, device.uuid, 'reboot')).statusCode).toBe(404);
    expect((await start(a, owner.token, 'f'.repeat(32), 'checks')).json()).toBe('Device not found');
    const big = await start(a, owner.token, device.uuid, 'checks', { params: { blob: 'x'.repeat(10_000) } });
    expect([big.statusCode, big.json()]).toEqual([400, `params must be at most ${ACTION_RUN_LIMITS.maxParamsBytes} bytes of JSON`]);
    expect((await start(a, owner.token, device.uuid, 'checks', { params: 'nope' })).statusCode).toBe(400);
    expect((await start(a, owner.token, device.uuid, 'checks', { params: { blob: 'x'.repeat(100_000) } })).statusCode).toBe(413);
    expect((await get(a, owner.token, 'not-a-uuid!', 'checks')).statusCode).toBe(400);
    // Nothing was started.
    expect(link.actions).toHaveLength(0);
    expect(await run(a, device.uuid, 'checks')).toEqual({ status: 'idle', stdout: null, error: null, lastRun: null });
    await link.close();
  });

  it('a run abandoned by a stopped server reads as error after its deadline and may start again', async () => {
    const { device, link } = await linked();
    await db.query(
      `INSERT INTO device_action_run (device, action, run_id, status, started_at, deadline) VALUES ($1, 'checks', gen_random_uuid(), 'in_progress', now() - interval '5 minutes', now() - interval '1 minute')`,
      [device.id],
    );
    const stale = await run(a, device.uuid, 'checks');
    expect(stale.status).toBe('error');
    expect(stale.error).toMatch(/did not finish/);
    link.answer = () => ({ status: 200, body: { Data: CHECKS, Error: null } });
    expect((await start(a, owner.token, device.uuid, 'checks')).statusCode).toBe(202);
    expect((await finished(a, device.uuid, 'checks')).status).toBe('done');
    await link.close();
  });
});
