import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { DeviceLogLine } from '@flotilla/model';
import { buildApp } from '../../app.js';
import { RedisBus } from '../../infra/bus/redis.js';
import type { PoolDb } from '../../infra/db/db.js';
import { createTestDb, sdkClient, signUp, TEST_JWT_SECRET, type SignedUpUser } from '../../../test/harness.js';
import { createFleet } from '../../../test/support/fleet-helpers.js';
import { eventually, insertDevice, startRedis, type RedisServer } from '../../../test/support/cloud-link.js';
import { logLine, SupervisorLogStream } from '../../../test/support/log-stream.js';

/**
 * Two server processes on one Redis and one database: a device streams its logs to A,
 * readers subscribed on B and on A (balena-sdk `logs.subscribe`) each get every line exactly
 * once and in order; B's history reads what A stored.
 */

let redis: RedisServer;
let db: PoolDb;
let drop: () => Promise<void>;
const buses: RedisBus[] = [];
let a: FastifyInstance;
let b: FastifyInstance;
let urlA: string;
let urlB: string;
let owner: SignedUpUser;
let fleetId: number;

beforeAll(async () => {
  redis = await startRedis();
  ({ db, drop } = await createTestDb());
  const node = async () => {
    const bus = new RedisBus(redis.url);
    await bus.ready();
    buses.push(bus);
    const app = await buildApp({ db, jwtSecret: TEST_JWT_SECRET, bus });
    return { app, url: await app.listen({ port: 0, host: '127.0.0.1' }) };
  };
  ({ app: a, url: urlA } = await node());
  ({ app: b, url: urlB } = await node());
  owner = await signUp(a);
  fleetId = await createFleet(a, db, owner, 'MultiNodeLogs');
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  await Promise.all(buses.map((bus) => bus.close()));
  await drop?.();
  await redis?.stop();
});

describe('device logs on two server processes', () => {
  it('delivers every line streamed to A to subscribers on B and on A, once each and in order', async () => {
    const device = await insertDevice(db, fleetId);
    const subscribe = async (url: string) => {
      const sdk = sdkClient(url);
      await sdk.auth.loginWithToken(owner.token);
      const got: DeviceLogLine[] = [];
      const subscription = await sdk.logs.subscribe(device.uuid, { count: 'all' });
      subscription.on('line', (line: DeviceLogLine) => got.push(line));
      return { got, subscription };
    };
    const stream = new SupervisorLogStream(urlA, device.uuid, device.key);
    // Lines before anyone subscribed come as history; the rest live, through Redis for B.
    stream.write(logLine('m0'), logLine('m1'));
    await eventually(async () => (await b.inject({ method: 'GET', url: `/device/v2/${device.uuid}/logs`, headers: { authorization: `Bearer ${owner.token}` } })).json<unknown[]>().length, (n) => n === 2);
    const onB = await subscribe(urlB);
    const onA = await subscribe(urlA);
    await eventually(async () => [onA.got.length, onB.got.length], ([x, y]) => x === 2 && y === 2);
    const total = 400;
    for (let i = 2; i < total; i += 7) stream.write(...Array.from({ length: Math.min(7, total - i) }, (_, k) => logLine(`m${i + k}`)));
    expect((await stream.end()).status).toBe(201);
    const expected = Array.from({ length: total }, (_, i) => `m${i}`);
    await eventually(async () => [onA.got.length, onB.got.length], ([x, y]) => x! >= total && y! >= total, 15_000);
    expect(onB.got.map((l) => l.message)).toEqual(expected);
    expect(onA.got.map((l) => l.message)).toEqual(expected);
    onA.subscription.unsubscribe();
    onB.subscription.unsubscribe();
  });
});
