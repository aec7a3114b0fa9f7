import { afterEach, describe, expect, it } from 'vitest';
import { LOG_LIMITS } from '@flotilla/model';
import { LogQueue, normalizeLine } from './log-queue.js';
import { LogStream } from './log-stream.js';
import { Scheduler } from './scheduler.js';
import { startLogTestServer, type LogTestServer } from './log-test-server.js';

describe('LogQueue', () => {
  it('keeps lines in order and cuts messages at the server limit', () => {
    const q = new LogQueue(10, () => 5);
    q.push({ message: 'a', timestamp: 1.7, serviceId: 3 });
    q.push({ message: 'x'.repeat(LOG_LIMITS.maxMessageChars + 50), timestamp: 2, isStdErr: true });
    const out = q.take();
    expect(out[0]).toEqual({ message: 'a', timestamp: 1, serviceId: 3 });
    expect(out[1]!.message.length).toBe(LOG_LIMITS.maxMessageChars);
    expect(out[1]!.isStdErr).toBe(true);
    expect(q.size).toBe(0);
  });

  it('drops the oldest lines past its bound and tells how many in one system line first', () => {
    const q = new LogQueue(3, () => 99);
    for (let i = 1; i <= 7; i++) q.push({ message: `line ${i}`, timestamp: i });
    expect(q.droppedTotal).toBe(4);
    const out = q.take(2);
    expect(out).toEqual([
      { message: 'Warning: Suppressed 4 message(s) due to high load', timestamp: 99, isSystem: true, isStdErr: true },
      { message: 'line 5', timestamp: 5 },
    ]);
    expect(q.take().map((l) => l.message)).toEqual(['line 6', 'line 7']);
    expect(q.take()).toEqual([]);
  });

  it('normalizeLine keeps only the protocol fields', () => {
    expect(normalizeLine({ message: 'm', timestamp: 1, isSystem: false, isStdErr: false })).toEqual({ message: 'm', timestamp: 1 });
  });
});

describe('LogStream against a gunzipping NDJSON server', () => {
  let server: LogTestServer;
  const streams: LogStream[] = [];
  let clock = 1_000_000;
  let scheduler: Scheduler;

  afterEach(async () => {
    await Promise.all(streams.splice(0).map((s) => s.close()));
    scheduler?.stop();
    await server?.close();
  });

  /** A stream on a hand-driven clock: timers fire only when the test advances it. */
  async function setup(opts: Partial<ConstructorParameters<typeof LogStream>[0]> = {}) {
    server = await startLogTestServer();
    clock = 1_000_000;
    scheduler = new Scheduler(() => clock, false);
    const stream = new LogStream({ apiEndpoint: server.url, uuid: 'abc123', deviceApiKey: 'key-1', scheduler, graceMs: 100, flushMs: 100, flushLines: 50, idleMs: 50_000, reconnectMs: 5_000, ...opts });
    streams.push(stream);
    return stream;
  }
  const advance = (ms: number) => {
    clock += ms;
    scheduler.runDue(clock);
  };
  const tick = () => new Promise((r) => setTimeout(r, 30));

  it('streams gzip NDJSON on one long-lived request with the device key; each batch arrives before the request ends', async () => {
    const stream = await setup();
    stream.push({ message: 'first', timestamp: 1, serviceId: 7 });
    stream.push({ message: 'second', timestamp: 2, isStdErr: true, serviceId: 7 });
    await server.until(() => server.streams.length === 1, 'the stream request');
    advance(100); // grace over: the queued lines go
    await server.until(() => server.lines().length === 2, 'two lines');
    expect(server.streams[0]!.ended).toBe(false);
    expect(server.streams[0]!.uuid).toBe('abc123');
    expect(server.streams[0]!.headers).toMatchObject({ authorization: 'Bearer key-1', 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' });
    stream.push({ message: 'third', timestamp: 3, isSystem: true });
    advance(100); // the flush timer
    await server.until(() => server.lines().length === 3, 'third line');
    expect(server.lines()).toEqual([
      { message: 'first', timestamp: 1, serviceId: 7 },
      { message: 'second', timestamp: 2, isStdErr: true, serviceId: 7 },
      { message: 'third', timestamp: 3, isSystem: true },
    ]);
    expect(server.streams).toHaveLength(1);
    expect(stream.stats).toMatchObject({ sent: 3, connects: 1, failures: 0 });
  });

  it('flushes at once when a batch of flushLines is waiting (no timer needed)', async () => {
    const stream = await setup({ flushLines: 5 });
    stream.push({ message: 'open', timestamp: 0 });
    await server.until(() => server.streams.length === 1);
    advance(100);
    await server.until(() => server.lines().length === 1);
    for (let i = 0; i < 5; i++) stream.push({ message: `b${i}`, timestamp: i });
    await server.until(() => server.lines().length === 6, 'the batch without a timer');
  });

  it('ends the request after idleMs without lines; the next line opens a new one', async () => {
    const stream = await setup();
    stream.push({ message: 'one', timestamp: 1 });
    await server.until(() => server.streams.length === 1);
    advance(100);
    await server.until(() => server.lines().length === 1);
    advance(49_000);
    await tick();
    expect(server.streams[0]!.ended).toBe(false);
    advance(1_000);
    await server.until(() => server.streams[0]!.ended, 'the idle end');
    expect(stream.connected).toBe(false);
    stream.push({ message: 'two', timestamp: 2 });
    await server.until(() => server.streams.length === 2, 'a new request');
    advance(100);
    await server.until(() => server.streams[1]!.lines.length === 1);
    expect(server.lines().map((l) => l.message)).toEqual(['one', 'two']);
  });

  it('a line still waiting for its flush when idleMs is up is written, and the idle check does not spin (issue 21 soak)', async () => {
    const stream = await setup();
    stream.push({ message: 'one', timestamp: 1 });
    await server.until(() => server.streams.length === 1);
    advance(100);
    await server.until(() => server.lines().length === 1);
    advance(49_950);
    stream.push({ message: 'two', timestamp: 2 }); // its flush is due 100 ms later, after the idle check
    clock += 50;
    // The idle check ran with a line queued: it used to re-arm itself at the same past time and
    // run forever, starving every other task on the scheduler (the simulator's 10,000 devices).
    const ran = scheduler.runDue(clock, 1_000);
    expect(ran).toBeLessThan(10);
    await server.until(() => server.lines().length === 2, 'the waiting line, on the same request');
    expect(server.streams).toHaveLength(1);
    expect(server.streams[0]!.ended).toBe(false);
    advance(50_000);
    await server.until(() => server.streams[0]!.ended, 'the idle end after the last write');
  });

  it('a refused stream loses no line: it reconnects after reconnectMs and sends them', async () => {
    const stream = await setup();
    server.answer = (_req, i) => (i === 0 ? { status: 503 } : null);
    stream.push({ message: 'kept', timestamp: 1 });
    await server.until(() => server.streams.length === 1);
    for (let i = 0; i < 50 && stream.stats.failures === 0; i++) await tick();
    expect(stream.stats.failures).toBe(1);
    stream.push({ message: 'also kept', timestamp: 2 });
    advance(4_999);
    await tick();
    expect(server.streams).toHaveLength(1);
    advance(1);
    await server.until(() => server.streams.length === 2, 'the reconnect');
    advance(100);
    await server.until(() => server.lines().length === 2);
    expect(server.lines().map((l) => l.message)).toEqual(['kept', 'also kept']);
  });

  it('backs off on 429 for Retry-After, and doubles without it', async () => {
    const stream = await setup();
    server.answer = (_req, i) => (i === 0 ? { status: 429, headers: { 'retry-after': '30' } } : i === 1 ? { status: 429 } : null);
    stream.push({ message: 'waits', timestamp: 1 });
    await server.until(() => server.streams.length === 1);
    for (let i = 0; i < 50 && stream.stats.rateLimited === 0; i++) await tick();
    expect(stream.stats.rateLimited).toBe(1);
    advance(29_999);
    await tick();
    expect(server.streams).toHaveLength(1);
    advance(1);
    await server.until(() => server.streams.length === 2, 'retry after 30 s');
    for (let i = 0; i < 50 && stream.stats.rateLimited === 1; i++) await tick();
    // Second 429 in a row, no Retry-After: reconnectMs · 2 = 10 s.
    advance(9_999);
    await tick();
    expect(server.streams).toHaveLength(2);
    advance(1);
    await server.until(() => server.streams.length === 3, 'retry after 10 s');
    advance(100);
    await server.until(() => server.lines().length === 1);
    expect(server.lines()[0]!.message).toBe('waits');
  });

  it('bounds its queue while the server is away: oldest dropped, a notice first, the rest in order', async () => {
    const stream = await setup({ maxQueueLines: 5 });
    server.answer = (_req, i) => (i === 0 ? { status: 500 } : null);
    stream.push({ message: 'l0', timestamp: 0 });
    await server.until(() => server.streams.length === 1);
    for (let i = 0; i < 50 && stream.stats.failures === 0; i++) await tick();
    for (let i = 1; i < 12; i++) stream.push({ message: `l${i}`, timestamp: i });
    advance(5_000);
    await server.until(() => server.streams.length === 2);
    advance(100);
    await server.until(() => server.lines().length === 6, 'notice + 5 lines');
    expect(server.lines().map((l) => l.message)).toEqual(['Warning: Suppressed 7 message(s) due to high load', 'l7', 'l8', 'l9', 'l10', 'l11']);
    expect(stream.stats.dropped).toBe(7);
  });

  it('a stream not enabled yet (device not registered) queues lines and makes no request until enable()', async () => {
    const stream = await setup({ enabled: false });
    stream.push({ message: 'early', timestamp: 1 });
    advance(10_000);
    await tick();
    expect(server.streams).toHaveLength(0);
    stream.enable();
    await server.until(() => server.streams.length === 1, 'the request after enable');
    advance(100);
    await server.until(() => server.lines().length === 1);
    expect(server.lines()[0]!.message).toBe('early');
  });

  it('close() sends what is queued and ends the request', async () => {
    const stream = await setup();
    stream.push({ message: 'a', timestamp: 1 });
    await server.until(() => server.streams.length === 1);
    advance(100);
    await server.until(() => server.lines().length === 1);
    stream.push({ message: 'b', timestamp: 2 });
    await stream.close();
    await server.until(() => server.streams[0]!.ended);
    expect(server.lines().map((l) => l.message)).toEqual(['a', 'b']);
    stream.push({ message: 'after close', timestamp: 3 });
    await tick();
    expect(server.streams).toHaveLength(1);
  });
});
