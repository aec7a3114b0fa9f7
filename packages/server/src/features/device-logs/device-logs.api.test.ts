import { request as httpRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { LOG_LIMITS, type DeviceLogLine } from '@flotilla/model';
import { buildApp } from '../../app.js';
import type { PoolDb } from '../../infra/db/db.js';
import { bearer, createTestDb, sdkClient, signUp, TEST_JWT_SECRET, type SignedUpUser } from '../../../test/harness.js';
import { createFleet, giveFleetRole } from '../../../test/support/fleet-helpers.js';
import { eventually, insertDevice, type TestDevice } from '../../../test/support/cloud-link.js';
import { logLine, SupervisorLogStream } from '../../../test/support/log-stream.js';
import { DEVICE_LOGS_RETENTION_JOB } from './index.js';

/**
 * Device logs (issue 15 item 1, dialect §4.5) over real HTTP with the published balena-sdk:
 * a stock-supervisor-shaped gzip NDJSON stream, batches, the rate limit, retention (lines and
 * days, the latter by the durable job), clearing, other organizations, bad input.
 */

const RETAIN_LINES = 50;
const DAY_MS = 86_400_000;
let db: PoolDb;
let drop: () => Promise<void>;
let app: FastifyInstance;
let url: string;
let owner: SignedUpUser;
let stranger: SignedUpUser;
let fleetId: number;
let clockOffset = 0;

beforeAll(async () => {
  ({ db, drop } = await createTestDb());
  app = await buildApp({
    db,
    jwtSecret: TEST_JWT_SECRET,
    clock: () => Date.now() + clockOffset,
    jobs: { pollingIntervalSeconds: 0.5 },
    logs: { retainLines: RETAIN_LINES, keepAliveMs: 200 },
  });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
  owner = await signUp(app);
  stranger = await signUp(app);
  fleetId = await createFleet(app, db, owner, 'LogsFleet');
});

afterAll(async () => {
  await app?.close();
  await drop?.();
});

const sdkAs = async (user: SignedUpUser) => {
  const sdk = sdkClient(url);
  await sdk.auth.loginWithToken(user.token);
  return sdk;
};
const history = async (device: TestDevice, query = 'count=all') => {
  const res = await app.inject({ method: 'GET', url: `/device/v2/${device.uuid}/logs?${query}`, headers: bearer(owner.token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<DeviceLogLine[]>();
};
const messages = async (device: TestDevice) => (await history(device)).map((l) => l.message);
const batch = (device: TestDevice, lines: unknown, key = device.key) =>
  app.inject({ method: 'POST', url: `/device/v2/${device.uuid}/logs`, headers: bearer(key), payload: lines as object });
const storedRows = async (device: TestDevice) => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_log WHERE device = $1', [device.id])).rows[0]!.n;

describe('a stock supervisor log stream', () => {
  it('is stored and fanned out while it stays open: sdk.logs.history and sdk.logs.subscribe see its lines', async () => {
    const device = await insertDevice(db, fleetId);
    const sdk = await sdkAs(owner);
    const stream = new SupervisorLogStream(url, device.uuid, device.key);
    stream.write(logLine('booting', { isSystem: true }), logLine('service up', { serviceId: 7 }));
    const early = await eventually(() => sdk.logs.history(device.uuid), (lines) => lines.length === 2);
    expect(early).toEqual([
      { message: 'booting', timestamp: expect.any(Number), createdAt: expect.any(Number), isSystem: true, isStdErr: false },
      { message: 'service up', timestamp: expect.any(Number), createdAt: expect.any(Number), isSystem: false, isStdErr: false, serviceId: 7 },
    ]);

    const live: DeviceLogLine[] = [];
    const subscription = await sdk.logs.subscribe(device.uuid, { count: 1 });
    subscription.on('line', (line: DeviceLogLine) => live.push(line));
    await eventually(async () => live.length, (n) => n === 1);
    expect(live[0]!.message).toBe('service up');
    stream.write(logLine('live one', { isStdErr: true }));
    stream.write(logLine('live two'));
    await eventually(async () => live.map((l) => l.message), (m) => m.length === 3);
    expect(live.map((l) => [l.message, l.isStdErr])).toEqual([
      ['service up', false],
      ['live one', true],
      ['live two', false],
    ]);
    subscription.unsubscribe();
    const answer = await stream.end();
    expect(answer.status).toBe(201);
    expect(await messages(device)).toEqual(['booting', 'service up', 'live one', 'live two']);
  });

  it('accepts an identity-encoded stream too, and a last line without its newline', async () => {
    const device = await insertDevice(db, fleetId);
    const stream = new SupervisorLogStream(url, device.uuid, device.key, { gzip: false });
    stream.write(logLine('plain'));
    stream.raw(JSON.stringify(logLine('unterminated')));
    expect((await stream.end()).status).toBe(201);
    expect(await messages(device)).toEqual(['plain', 'unterminated']);
  });

  it('keeps the stream alive with a newline every keep-alive interval', async () => {
    const device = await insertDevice(db, fleetId);
    const got = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(new URL(`/device/v2/${device.uuid}/logs?stream=1`, url), { headers: bearer(owner.token) }, (res) => {
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('application/x-ndjson');
        res.setEncoding('utf8');
        res.once('data', (chunk: string) => {
          req.destroy();
          resolve(chunk);
        });
      });
      req.once('error', reject);
      req.end();
    });
    expect(got).toBe('\n');
  });

  it('drops lines for a reader that does not keep up, and tells it how many', async () => {
    const device = await insertDevice(db, fleetId);
    const reader = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = httpRequest(new URL(`/device/v2/${device.uuid}/logs?stream=1`, url), { headers: bearer(owner.token) }, resolve);
      req.once('error', reject);
      req.end();
    });
    // The reader stops reading: its socket buffers fill, then the server's (1 MiB) does.
    reader.pause();
    const stream = new SupervisorLogStream(url, device.uuid, device.key);
    const total = 1500;
    for (let i = 0; i < total; i += 100) stream.write(...Array.from({ length: 100 }, (_, k) => logLine(`${i + k} ${'x'.repeat(9_900)}`)));
    expect((await stream.end()).status).toBe(201);
    let text = '';
    reader.setEncoding('utf8');
    reader.on('data', (c: string) => (text += c));
    reader.resume();
    const warning = await eventually(async () => /Suppressed (\d+) message\(s\) due to slow reading/.exec(text), (m) => m !== null, 15_000);
    reader.destroy();
    const received = text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as DeviceLogLine);
    const delivered = received.filter((l) => !l.isSystem).map((l) => Number(l.message.split(' ')[0]));
    expect(delivered.length).toBeGreaterThan(0);
    expect(delivered.length + Number(warning![1])).toBe(total);
    // What arrives stays in order.
    expect([...delivered].sort((x, y) => x - y)).toEqual(delivered);
  });

  it('ends a stream idle past its limit with 201 (the device reconnects)', async () => {
    const idleApp = await buildApp({ db, jwtSecret: TEST_JWT_SECRET, logs: { streamIdleMs: 300 } });
    try {
      const idleUrl = await idleApp.listen({ port: 0, host: '127.0.0.1' });
      const device = await insertDevice(db, fleetId);
      const stream = new SupervisorLogStream(idleUrl, device.uuid, device.key);
      stream.write(logLine('then silence'));
      const answer = await stream.response;
      expect(answer.status).toBe(201);
      expect(await messages(device)).toEqual(['then silence']);
    } finally {
      await idleApp.close();
    }
  });

  it('ends open readers and log streams when the server closes', async () => {
    const closing = await buildApp({ db, jwtSecret: TEST_JWT_SECRET });
    const closingUrl = await closing.listen({ port: 0, host: '127.0.0.1' });
    const device = await insertDevice(db, fleetId);
    const stream = new SupervisorLogStream(closingUrl, device.uuid, device.key);
    stream.write(logLine('last words'));
    await eventually(() => storedRows(device), (n) => n === 1);
    const reader = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = httpRequest(new URL(`/device/v2/${device.uuid}/logs?stream=1&count=all`, closingUrl), { headers: bearer(owner.token) }, resolve);
      req.once('error', reject);
      req.end();
    });
    const readerEnded = new Promise<string>((resolve) => {
      let body = '';
      reader.setEncoding('utf8');
      reader.on('data', (c: string) => (body += c));
      reader.once('end', () => resolve(body));
    });
    await closing.close();
    expect(JSON.parse((await readerEnded).trim()).message).toBe('last words');
    expect((await stream.response).status).toBe(503);
  });
});

describe('batches and the rate limit', () => {
  it('stores a batch of up to 10 lines and refuses 11 without storing any', async () => {
    const device = await insertDevice(db, fleetId);
    const ten = Array.from({ length: LOG_LIMITS.maxBatchLines }, (_, i) => logLine(`line ${i}`));
    expect((await batch(device, ten)).statusCode).toBe(201);
    const eleven = await batch(device, [...ten, logLine('one too many')]);
    expect(eleven.statusCode).toBe(400);
    expect(await messages(device)).toEqual(ten.map((l) => l.message));
  });

  it('answers 429 past 15 batches in 10 s and stores nothing of the refused batch', async () => {
    const device = await insertDevice(db, fleetId);
    for (let i = 0; i < LOG_LIMITS.rateLimitBatches; i++) {
      const res = await batch(device, [logLine(`batch ${i}`)]);
      expect(res.statusCode, res.body).toBe(201);
    }
    const refused = await batch(device, [logLine('refused')]);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const stored = await messages(device);
    expect(stored).toHaveLength(LOG_LIMITS.rateLimitBatches);
    expect(stored).not.toContain('refused');
    // Another device is not limited by this one.
    const other = await insertDevice(db, fleetId);
    expect((await batch(other, [logLine('fine')])).statusCode).toBe(201);
  });

  it('charges a stream one batch per 100 lines: past 1,500 lines in 10 s it is answered 429 and closed', async () => {
    const device = await insertDevice(db, fleetId);
    const stream = new SupervisorLogStream(url, device.uuid, device.key);
    const lines = Array.from({ length: 1600 }, (_, i) => logLine(`n${i}`));
    for (let i = 0; i < lines.length; i += 100) stream.write(...lines.slice(i, i + 100));
    const answer = await stream.response;
    expect(answer.status).toBe(429);
    expect(answer.headers['retry-after']).toBeDefined();
    await eventually(() => storedRows(device), (n) => n > 0);
    const kept = await history(device, 'count=all');
    // Only the newest RETAIN_LINES are read back, and none beyond the 1,500th.
    expect(kept.at(-1)!.message).toBe('n1499');
  });
});

describe('retention', () => {
  it('keeps only the last N lines of a device, in order', async () => {
    const device = await insertDevice(db, fleetId);
    const stream = new SupervisorLogStream(url, device.uuid, device.key);
    for (let i = 0; i < 120; i += 10) stream.write(...Array.from({ length: 10 }, (_, k) => logLine(`r${i + k}`)));
    expect((await stream.end()).status).toBe(201);
    const expected = Array.from({ length: RETAIN_LINES }, (_, i) => `r${120 - RETAIN_LINES + i}`);
    expect(await messages(device)).toEqual(expected);
    // Pruned in the store (amortised: at most a quarter of N over it), not only hidden.
    // The prune runs after the write that crossed the bound: wait for it, not for a clock.
    const bound = RETAIN_LINES + Math.ceil(RETAIN_LINES / 4);
    expect(await eventually(() => storedRows(device), (n) => n <= bound, 10_000)).toBeLessThanOrEqual(bound);
    expect((await history(device, 'count=3')).map((l) => l.message)).toEqual(expected.slice(-3));
    expect((await history(device, 'count=5000')).length).toBe(RETAIN_LINES);
  });

  it('drops lines older than the day cap in the durable job', async () => {
    const device = await insertDevice(db, fleetId);
    expect((await batch(device, [logLine('old news')])).statusCode).toBe(201);
    expect(await storedRows(device)).toBe(1);
    clockOffset = (LOG_LIMITS.retainDays + 1) * DAY_MS;
    try {
      // Readers never see expired lines, even before the job ran.
      expect(await messages(device)).toEqual([]);
      const id = await app.jobs!.send(DEVICE_LOGS_RETENTION_JOB);
      await eventually(() => app.jobs!.stateOf(DEVICE_LOGS_RETENTION_JOB, id!), (s) => s === 'completed', 15_000);
      expect(await storedRows(device)).toBe(0);
    } finally {
      clockOffset = 0;
    }
  });

  it('deletes a device’s lines with the device', async () => {
    const device = await insertDevice(db, fleetId);
    expect((await batch(device, [logLine('soon gone')])).statusCode).toBe(201);
    const res = await app.inject({ method: 'DELETE', url: `/v7/device(${device.id})`, headers: bearer(owner.token) });
    expect(res.statusCode, res.body).toBe(200);
    expect(await storedRows(device)).toBe(0);
  });

  it('stores lines while a transaction holds the device rows FOR UPDATE (as a state report does): storing takes no lock on them', async () => {
    // The foreign key's FOR KEY SHARE made log INSERTs wait behind state reports and deadlock with them.
    const device = await insertDevice(db, fleetId);
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT id FROM device WHERE id = $1 FOR UPDATE', [device.id]);
      await app.deviceLogs.store.append(device.id, [{ message: 'while locked', timestamp: Date.now(), isSystem: false, isStdErr: false, serviceId: null }]);
      expect(await storedRows(device)).toBe(1);
      await client.query('COMMIT');
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
    }
  });
});

describe('clearing and other organizations', () => {
  it('clears with resin.device_log.delete (developer and up) and refuses an operator', async () => {
    const device = await insertDevice(db, fleetId);
    expect((await batch(device, [logLine('a'), logLine('b')])).statusCode).toBe(201);
    const operator = await signUp(app);
    const developer = await signUp(app);
    await giveFleetRole(db, owner.orgId, fleetId, operator, 'operator');
    await giveFleetRole(db, owner.orgId, fleetId, developer, 'developer');
    const clear = (token: string | null) =>
      app.inject({ method: 'DELETE', url: `/device/v2/${device.uuid}/logs`, headers: token === null ? {} : bearer(token) });
    expect((await clear(null)).statusCode).toBe(401);
    expect((await clear(operator.token)).statusCode).toBe(403);
    // The operator still reads them.
    const read = await app.inject({ method: 'GET', url: `/device/v2/${device.uuid}/logs`, headers: bearer(operator.token) });
    expect(read.json<DeviceLogLine[]>()).toHaveLength(2);
    expect((await clear(device.key)).statusCode).toBe(403);
    expect(await storedRows(device)).toBe(2);
    expect((await clear(developer.token)).statusCode).toBe(204);
    expect(await messages(device)).toEqual([]);
    expect((await clear(owner.token)).statusCode).toBe(204);
  });

  it('gives a user of another organization no lines: read, subscribe and clear are refused', async () => {
    const device = await insertDevice(db, fleetId);
    expect((await batch(device, [logLine('private')])).statusCode).toBe(201);
    const as = (method: 'GET' | 'DELETE', query = '') =>
      app.inject({ method, url: `/device/v2/${device.uuid}/logs${query}`, headers: bearer(stranger.token) });
    const read = await as('GET');
    expect(read.statusCode).toBe(404);
    expect(read.body).not.toContain('private');
    const subscribe = await as('GET', '?stream=1');
    expect(subscribe.statusCode).toBe(404);
    expect((await as('DELETE')).statusCode).toBe(404);
    const sdk = await sdkAs(stranger);
    await expect(sdk.logs.history(device.uuid)).rejects.toThrow();
    await expect(sdk.logs.subscribe(device.uuid)).rejects.toThrow();
    const anonymous = await app.inject({ method: 'GET', url: `/device/v2/${device.uuid}/logs` });
    expect(anonymous.statusCode).toBe(401);
    expect(await storedRows(device)).toBe(1);
  });

  it('refuses a count or start it cannot read with 400', async () => {
    const device = await insertDevice(db, fleetId);
    for (const q of ['count=-1', 'count=lots', 'start=yesterday', 'start=2024-99-01']) {
      const res = await app.inject({ method: 'GET', url: `/device/v2/${device.uuid}/logs?${q}`, headers: bearer(owner.token) });
      expect(res.statusCode, q).toBe(400);
    }
    const ok = await app.inject({ method: 'GET', url: `/device/v2/${device.uuid}/logs?count=all&start=${new Date(0).toISOString()}`, headers: bearer(owner.token) });
    expect(ok.statusCode).toBe(200);
  });
});

describe('bad input', () => {
  it('cuts messages at 10,000 characters', async () => {
    const device = await insertDevice(db, fleetId);
    const stream = new SupervisorLogStream(url, device.uuid, device.key);
    stream.write(logLine('x'.repeat(30_000)));
    expect((await stream.end()).status).toBe(201);
    expect((await batch(device, [logLine('y'.repeat(20_000))])).statusCode).toBe(201);
    const [streamed, batched] = await history(device);
    expect(streamed!.message).toBe('x'.repeat(LOG_LIMITS.maxMessageChars));
    expect(batched!.message).toBe('y'.repeat(LOG_LIMITS.maxMessageChars));
  });

  it('skips a line whose timestamp no date can hold, and a batch of another device written at the same time still stores (fuzzer, issue 21)', async () => {
    // 1e20 ms used to reach the bigint column: the shared INSERT failed and every batch in it answered 503.
    const bad = await insertDevice(db, fleetId);
    const good = await insertDevice(db, fleetId);
    const [a, b] = await Promise.all([batch(bad, [{ message: '1', timestamp: 1e20 }, logLine('kept')]), batch(good, [logLine('neighbour')])]);
    expect([a.statusCode, b.statusCode], `${a.body} ${b.body}`).toEqual([201, 201]);
    expect(await messages(bad)).toEqual(['kept']);
    expect(await messages(good)).toEqual(['neighbour']);
  });

  it('skips malformed NDJSON lines and a huge raw line, storing the rest of the stream', async () => {
    const device = await insertDevice(db, fleetId);
    const stream = new SupervisorLogStream(url, device.uuid, device.key);
    stream.write(logLine('before'), '{"message": "cut', 'not json at all', '{"message": 5, "timestamp": 1}', '[1,2]', logLine('between'));
    stream.write(JSON.stringify(logLine('z'.repeat(200_000))), logLine('after the huge one'));
    stream.write(logLine('with \u0000 a NUL'));
    expect((await stream.end()).status).toBe(201);
    expect(await messages(device)).toEqual(['before', 'between', 'after the huge one', 'with \ufffd a NUL']);
  });

  it("refuses another device's uuid and a user's token, writing nothing, and keeps serving", async () => {
    const device = await insertDevice(db, fleetId);
    const other = await insertDevice(db, fleetId);
    const stream = new SupervisorLogStream(url, other.uuid, device.key);
    stream.write(logLine('impostor'));
    expect((await stream.response).status).toBe(403);
    stream.abort();
    expect((await batch(other, [logLine('impostor')], device.key)).statusCode).toBe(403);
    const asUser = new SupervisorLogStream(url, device.uuid, owner.token);
    asUser.write(logLine('user'));
    expect((await asUser.response).status).toBe(401);
    asUser.abort();
    const anonymous = new SupervisorLogStream(url, device.uuid, null);
    expect((await anonymous.response).status).toBe(401);
    anonymous.abort();
    const wrongType = new SupervisorLogStream(url, device.uuid, device.key, { contentType: 'text/plain' });
    wrongType.write('hello');
    expect((await wrongType.response).status).toBe(415);
    wrongType.abort();
    const notGzip = new SupervisorLogStream(url, device.uuid, device.key, { gzip: false });
    const fake = httpRequest(new URL(`/device/v2/${device.uuid}/log-stream`, url), {
      method: 'POST',
      headers: { ...bearer(device.key), 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' },
    });
    const fakeAnswer = new Promise<number>((resolve) => fake.once('response', (res) => resolve(res.statusCode ?? 0)));
    fake.on('error', () => undefined);
    fake.end('this is not gzip\n');
    expect(await fakeAnswer).toBe(400);
    notGzip.abort();
    expect(await storedRows(other)).toBe(0);
    expect(await storedRows(device)).toBe(0);
    // A device that goes away mid-stream (gzip and identity) keeps what it sent; the process keeps serving.
    for (const gzip of [true, false]) {
      const gone = new SupervisorLogStream(url, device.uuid, device.key, { gzip });
      gone.write(logLine(`gone ${gzip}`));
      gone.raw('{"message": "half a li');
      await eventually(() => storedRows(device), (n) => n === (gzip ? 1 : 2));
      gone.abort();
    }
    expect((await app.inject({ method: 'GET', url: '/ping' })).body).toBe('OK');
    await app.inject({ method: 'DELETE', url: `/device/v2/${device.uuid}/logs`, headers: bearer(owner.token) });
    const fine = new SupervisorLogStream(url, device.uuid, device.key);
    fine.write(logLine('still fine'));
    expect((await fine.end()).status).toBe(201);
    expect(await messages(device)).toEqual(['still fine']);
  });
});
