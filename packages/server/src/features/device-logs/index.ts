import type { FastifyInstance } from 'fastify';
import { LOG_LIMITS } from '@flotilla/model';
import type { Rules } from '../../infra/app/context.js';
import type { JobDefinition } from '../../infra/jobs/job-runner.js';
import { DeviceLogAccess } from './device-access.js';
import { deviceLogsRoutes } from './device-logs.routes.js';
import type { IngestLimits } from './ingest-stream.js';
import { logRetentionJob } from './log-retention.js';
import { LogRateLimiter } from './log-rate-limit.js';
import { PgLogStore, type LogStore } from './log-store.js';
import { deviceLogsChannel, type DeviceLogsMessage } from './read-stream.js';

/** What other features and tests use. */
export { DEVICE_LOGS_RETENTION_JOB } from './log-retention.js';
export { deviceLogsChannel, type DeviceLogsMessage } from './read-stream.js';
export type { LogStore, LogReadOptions } from './log-store.js';
export type { StoredLogLine, LogLineInput } from './log-lines.js';

/** A raw NDJSON line longer than this is dropped before parsing (a 10,000-character message escaped fits). */
export const MAX_RAW_LOG_LINE_BYTES = 64 * 1024;
/** Dialect §4.5: a log stream that sends nothing for a minute is ended. */
export const LOG_STREAM_IDLE_MS = 60_000;
/** A log stream is charged one rate-limit batch per this many lines (decisions.md). */
export const STREAM_LINES_PER_BATCH = 100;

/** The app's device logs (features/device-logs): its store and the day cap's job. */
export interface DeviceLogsState {
  store: LogStore;
  job: JobDefinition;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Device logs (features/device-logs). */
    deviceLogs: DeviceLogsState;
  }
}

/**
 * Device logs (issue 15 item 1, dialect §4.5): ingestion from devices (stream and batches,
 * rate limited), a capped store per device (PostgreSQL), live fan-out through the bus
 * (`device-logs:<deviceId>`, one message per store write and device) and readers in
 * balena-sdk's `logs.history` / `logs.subscribe` shape; clearing needs `delete_logs`.
 */
export async function setup(app: FastifyInstance, _rules: Rules): Promise<void> {
  const { db, bus, clock, config } = app.context;
  const settings = config.logs ?? {};
  const retainLines = settings.retainLines ?? LOG_LIMITS.retainLines;
  const retainDays = settings.retainDays ?? LOG_LIMITS.retainDays;
  const store = new PgLogStore(db, {
    retainLines,
    retainDays,
    clock,
    flushIntervalMs: settings.flushIntervalMs,
    onError: (err) => app.log.error({ err }, 'device logs store'),
  });
  // One publish per store write and device: every subscriber, on every process, gets it.
  store.onStored((deviceId, lines) => {
    const message: DeviceLogsMessage = { lines };
    bus.publish(deviceLogsChannel(deviceId), message).catch((err: unknown) => app.log.error({ err }, 'device logs publish failed'));
  });
  const limiter = new LogRateLimiter(LOG_LIMITS.rateLimitBatches, LOG_LIMITS.rateLimitWindowMs, clock);
  const sweep = setInterval(() => limiter.sweep(), LOG_LIMITS.rateLimitWindowMs);
  sweep.unref();
  const limits: IngestLimits = {
    maxLineBytes: MAX_RAW_LOG_LINE_BYTES,
    idleMs: settings.streamIdleMs ?? LOG_STREAM_IDLE_MS,
    linesPerBatch: STREAM_LINES_PER_BATCH,
    maxInflightChars: 1_000_000,
  };
  app.addHook('onClose', async () => {
    clearInterval(sweep);
    await store.close();
  });
  await app.register(deviceLogsRoutes, {
    store,
    access: new DeviceLogAccess(db),
    limiter,
    limits,
    retainLines,
    keepAliveMs: settings.keepAliveMs ?? LOG_LIMITS.keepAliveMs,
  });
  app.decorate('deviceLogs', { store, job: logRetentionJob(store) });
}
