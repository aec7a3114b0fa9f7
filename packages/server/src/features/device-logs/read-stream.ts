import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Bus } from '../../infra/bus/bus.js';
import { toReaderLine, type StoredLogLine } from './log-lines.js';
import type { LogReadOptions, LogStore } from './log-store.js';

/** The bus channel of a device's newly stored lines (one message per store write: `{lines}`). */
export const deviceLogsChannel = (deviceId: number) => `device-logs:${deviceId}`;

export interface DeviceLogsMessage {
  lines: StoredLogLine[];
}

/** Live lines kept while the history is read; past it the oldest are dropped (and counted). */
const MAX_BUFFERED = 10_000;

/**
 * `GET /device/v2/{uuid}/logs?stream=1` (dialect §4.5, balena-sdk `logs.subscribe`): NDJSON,
 * the history first, then every line the device's channel announces, on whatever server
 * process stored it, once and in order (a live line the history already held is skipped by
 * its id), with a `\n` keep-alive every `keepAliveMs`. A reader slower than the lines loses
 * lines rather than holding them in memory, and is told how many in a system line, as
 * balena does.
 */
export async function streamDeviceLogs(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: { bus: Bus; store: LogStore; deviceId: number; read: LogReadOptions; keepAliveMs: number; clock: () => number },
): Promise<void> {
  const { bus, store, deviceId, read, keepAliveMs, clock } = deps;
  const res = reply.raw;
  let state: 'buffering' | 'live' | 'saturated' | 'closed' = 'buffering';
  const buffered: StoredLogLine[] = [];
  let dropped = 0;
  let lastId = 0;
  const timer: { keepAlive?: NodeJS.Timeout } = {};

  const write = (line: StoredLogLine) => {
    if (line.id <= lastId) return;
    lastId = line.id;
    if (state === 'saturated') {
      dropped += 1;
      return;
    }
    if (!res.write(`${JSON.stringify(toReaderLine(line))}\n`)) state = 'saturated';
  };
  const onMessage = (message: unknown) => {
    const lines = (message as DeviceLogsMessage | null)?.lines;
    if (!Array.isArray(lines) || state === 'closed') return;
    if (state === 'buffering') {
      buffered.push(...lines);
      if (buffered.length > MAX_BUFFERED) dropped += buffered.splice(0, buffered.length - MAX_BUFFERED).length;
      return;
    }
    for (const line of lines) write(line);
  };

  const unsubscribe = await bus.subscribe(deviceLogsChannel(deviceId), onMessage);
  const close = () => {
    if (state === 'closed') return;
    state = 'closed';
    clearInterval(timer.keepAlive);
    void unsubscribe();
  };
  let history: StoredLogLine[];
  try {
    history = await store.read(deviceId, read);
  } catch (err) {
    close();
    throw err;
  }
  if (res.destroyed || request.raw.socket?.destroyed) {
    close();
    return;
  }
  reply.hijack();
  res.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
  res.flushHeaders();
  res.once('close', close);
  const warnDropped = () => {
    if (dropped === 0) return;
    const now = clock();
    const n = dropped;
    dropped = 0;
    res.write(`${JSON.stringify({ message: `Warning: Suppressed ${n} message(s) due to slow reading`, timestamp: now, createdAt: now, isSystem: true, isStdErr: true })}\n`);
  };
  res.on('drain', () => {
    if (state !== 'saturated') return;
    state = 'live';
    warnDropped();
  });
  timer.keepAlive = setInterval(() => {
    if (state !== 'closed') res.write('\n');
  }, keepAliveMs);

  state = 'live';
  for (const line of history) write(line);
  // Lines announced while the history was read: only those after it.
  for (const line of buffered.splice(0)) write(line);
  if (state === 'live') warnDropped();
}
