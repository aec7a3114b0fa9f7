import { describe, expect, it } from 'vitest';
import type { Db } from '../../infra/db/db.js';
import type { LogLineInput } from './log-lines.js';
import { PgLogStore } from './log-store.js';

const line = (message: string): LogLineInput => ({ message, timestamp: 1, isSystem: false, isStdErr: false, serviceId: null });

/**
 * A database that answers the store's INSERT with one id per line, in order, and records the
 * statements' sizes; `failures` are thrown by the next INSERTs (a rolled-back statement writes nothing).
 */
function fakeDb(failures: { code: string }[] = []) {
  let nextId = 1;
  const inserts: number[] = [];
  const db = {
    query: (sql: string, params?: readonly unknown[]) => {
      if (!sql.includes('INSERT INTO device_log')) return Promise.resolve({ rows: [], rowCount: 0 });
      const failure = failures.shift();
      if (failure) return Promise.reject(Object.assign(new Error(failure.code), failure));
      // The lines travel as one JSON parameter of column arrays (`d`: the devices).
      const devices = (JSON.parse(params![0] as string) as { d: number[] }).d;
      inserts.push(devices.length);
      return Promise.resolve({ rows: devices.map((device) => ({ id: nextId++, device })), rowCount: devices.length });
    },
    tx: () => Promise.reject(new Error('no transactions here')),
    afterCommit: () => undefined,
  } as unknown as Db;
  return { db, inserts };
}

const options = { retainLines: 1000, retainDays: 7, clock: () => 0, flushIntervalMs: 1 };

describe('PgLogStore writes', () => {
  it('stores and announces the lines of an INSERT that PostgreSQL rolled back as a deadlock victim (it is run again)', async () => {
    // The foreign key's FOR KEY SHARE on device rows deadlocked against a transaction locking
    // them: every device's lines of that write were lost (their streams answered 503).
    const { db, inserts } = fakeDb([{ code: '40P01' }, { code: '40001' }]);
    const errors: unknown[] = [];
    const store = new PgLogStore(db, { ...options, onError: (err) => errors.push(err) });
    const announced: [number, string[]][] = [];
    store.onStored((deviceId, lines) => announced.push([deviceId, lines.map((l) => l.message)]));
    await Promise.all([store.append(1, [line('a1'), line('a2')]), store.append(2, [line('b1')])]);
    expect(inserts).toEqual([3]);
    expect(announced).toEqual([
      [1, ['a1', 'a2']],
      [2, ['b1']],
    ]);
    expect(errors).toEqual([]);
    await store.close();
  });

  it('writes a large buffer as several INSERTs of at most maxStatementLines, each device in order with ascending ids', async () => {
    const { db, inserts } = fakeDb();
    const store = new PgLogStore(db, { ...options, maxStatementLines: 4 });
    const announced = new Map<number, { id: number; message: string }[]>();
    store.onStored((deviceId, lines) => announced.set(deviceId, [...(announced.get(deviceId) ?? []), ...lines.map(({ id, message }) => ({ id, message }))]));
    const appended = [];
    for (let i = 0; i < 5; i++) appended.push(store.append(1, [line(`a${i}`)]), store.append(2, [line(`b${i}`)]));
    await Promise.all(appended);
    expect(inserts).toEqual([4, 4, 2]);
    for (const [deviceId, prefix] of [
      [1, 'a'],
      [2, 'b'],
    ] as const) {
      const got = announced.get(deviceId)!;
      expect(got.map((l) => l.message)).toEqual([0, 1, 2, 3, 4].map((i) => `${prefix}${i}`));
      expect(got.map((l) => l.id)).toEqual([...got.map((l) => l.id)].sort((x, y) => x - y));
    }
    await store.close();
  });

  it('gives up on an INSERT that keeps deadlocking (the appends fail, nothing is announced)', async () => {
    const { db } = fakeDb(Array.from({ length: 10 }, () => ({ code: '40P01' })));
    const store = new PgLogStore(db, { ...options, onError: () => undefined });
    const announced: number[] = [];
    store.onStored((deviceId) => announced.push(deviceId));
    await expect(store.append(1, [line('a')])).rejects.toMatchObject({ code: '40P01' });
    expect(announced).toEqual([]);
  });
});
