import type { FastifyInstance } from 'fastify';
import { LOG_LIMITS } from '@flotilla/model';
import { BadRequestError, ForbiddenError, HttpError, TooManyRequestsError } from '../../infra/errors.js';
import { DEVICE_UUID, EMPTY_BODY } from '../../infra/http/schemas.js';
import { deviceOperationAllowed } from '../devices/index.js';
import type { DeviceLogAccess } from './device-access.js';
import { ingestLogStream, type IngestLimits } from './ingest-stream.js';
import type { LogRateLimiter } from './log-rate-limit.js';
import { normalizeLogLine, toReaderLine, type LogLineInput } from './log-lines.js';
import type { LogStore } from './log-store.js';
import { OpenStreams, streamDeviceLogs } from './read-stream.js';

export const NDJSON_TYPE = 'application/x-ndjson';

export interface DeviceLogsRouteOptions {
  store: LogStore;
  access: DeviceLogAccess;
  limiter: LogRateLimiter;
  limits: IngestLimits;
  retainLines: number;
  keepAliveMs: number;
}

const uuidParams = { type: 'object', required: ['uuid'], properties: { uuid: DEVICE_UUID } } as const;

/** A batch: at most LOG_LIMITS.maxBatchLines log objects; each message bounded by the raw-line cap (longer ones are cut at 10,000 characters). */
const batchSchema = (maxLineBytes: number) =>
  ({
    type: 'array',
    maxItems: LOG_LIMITS.maxBatchLines,
    items: {
      type: 'object',
      required: ['message', 'timestamp'],
      properties: {
        message: { type: 'string', maxLength: maxLineBytes },
        timestamp: { type: 'number' },
        isSystem: { type: ['boolean', 'null'] },
        isStdErr: { type: ['boolean', 'null'] },
        serviceId: { type: ['integer', 'null'] },
      },
    },
  }) as const;

const readQuery = {
  type: 'object',
  properties: {
    count: { type: 'string', maxLength: 20 },
    start: { type: 'string', maxLength: 64 },
    stream: { type: 'string', maxLength: 8 },
  },
} as const;

/** `count`: a whole number or `all` (the retention), at most the retention; else 400. */
export function parseCount(value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return Math.min(fallback, max);
  if (value === 'all') return max;
  if (!/^\d{1,15}$/.test(value)) throw new BadRequestError("count must be a whole number or 'all'");
  return Math.min(Number(value), max);
}

/** `start`: milliseconds since the epoch or an ISO 8601 date; else 400. */
export function parseStart(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (/^\d{1,15}$/.test(value)) return Number(value);
  if (/^\d{4}-\d{2}-\d{2}/.test(value)) {
    const ms = Date.parse(value);
    if (Number.isFinite(ms)) return ms;
  }
  throw new BadRequestError('start must be a timestamp in milliseconds or an ISO 8601 date');
}

/**
 * Device logs (dialect §4.5): the device writes (`POST …/logs` batches, `POST …/log-stream`),
 * readers read (`GET …/logs`, `?stream=1`), fleet developers and up clear (`DELETE …/logs`).
 */
export async function deviceLogsRoutes(app: FastifyInstance, opts: DeviceLogsRouteOptions): Promise<void> {
  const { store, access, limiter, limits, retainLines, keepAliveMs } = opts;
  const { db, bus, clock } = app.context;

  // Streams open on this process (readers and devices' log streams): ended before the server closes.
  const open = new OpenStreams();
  app.addHook('preClose', async () => open.endAll());

  // The stream's body is read by the route as it arrives (never buffered by a parser).
  app.addContentTypeParser(NDJSON_TYPE, (_request, payload, done) => done(null, payload));

  app.post<{ Params: { uuid: string }; Body: unknown[] }>(
    '/device/v2/:uuid/logs',
    { schema: { params: uuidParams, body: batchSchema(limits.maxLineBytes) } },
    async (request, reply) => {
      const deviceId = await access.writer(request.actor, request.params.uuid);
      const wait = limiter.take(deviceId);
      if (wait > 0) throw new TooManyRequestsError(wait / 1000);
      const lines = request.body.map(normalizeLogLine).filter((l): l is LogLineInput => l !== undefined);
      try {
        await store.append(deviceId, lines);
      } catch (err) {
        request.log.error({ err }, 'storing device logs failed');
        throw new HttpError(503, 'The logs storage is unavailable');
      }
      return reply.code(201).send();
    },
  );

  // Checked before the body is parsed: another content type's parser would wait for the
  // end of a body that may never end.
  const streamWriters = new WeakMap<object, number>();
  app.post<{ Params: { uuid: string } }>(
    '/device/v2/:uuid/log-stream',
    {
      schema: { params: uuidParams },
      config: { ownInput: 'a long-lived NDJSON body (gzip or identity), split and checked line by line as it arrives' },
      preParsing: async (request, reply, payload) => {
        // A refused stream is answered at once and its connection closed (the body may never end).
        reply.header('connection', 'close');
        reply.raw.once('finish', () => {
          if (!request.raw.complete) request.raw.destroy();
        });
        const uuid = (request.params as { uuid?: unknown }).uuid;
        if (typeof uuid !== 'string' || !/^[0-9a-fA-F]{1,62}$/.test(uuid)) throw new BadRequestError('Invalid device uuid');
        const deviceId = await access.writer(request.actor, uuid);
        const type = String(request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
        if (type !== NDJSON_TYPE) throw new HttpError(415, `Streaming requests require Content-Type ${NDJSON_TYPE}`);
        const encoding = String(request.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
        if (!['identity', 'gzip', 'x-gzip'].includes(encoding)) throw new HttpError(415, 'Content-Encoding must be gzip or identity');
        streamWriters.set(request, deviceId);
        reply.removeHeader('connection');
        return payload;
      },
    },
    async (request, reply) => {
      const deviceId = streamWriters.get(request);
      if (deviceId === undefined) throw new BadRequestError('Invalid log stream');
      await ingestLogStream(request, reply, { deviceId, store, limiter, limits, log: request.log, open });
      return reply;
    },
  );

  app.get<{ Params: { uuid: string }; Querystring: { count?: string; start?: string; stream?: string } }>(
    '/device/v2/:uuid/logs',
    { schema: { params: uuidParams, querystring: readQuery } },
    async (request, reply) => {
      const streaming = request.query.stream === '1' || request.query.stream === 'true';
      // balena-sdk's logs.subscribe documents a default of no history; a history read gets 1000.
      const count = parseCount(request.query.count, streaming ? 0 : LOG_LIMITS.defaultReadCount, retainLines);
      const start = parseStart(request.query.start);
      const deviceId = await access.reader(request.actor, request.params.uuid);
      if (streaming) {
        await streamDeviceLogs(request, reply, { bus, store, deviceId, read: { count, start }, keepAliveMs, clock, open });
        return reply;
      }
      const lines = await store.read(deviceId, { count, start });
      return reply.header('cache-control', 'no-cache').send(lines.map(toReaderLine));
    },
  );

  app.delete<{ Params: { uuid: string } }>('/device/v2/:uuid/logs', { schema: { params: uuidParams, body: EMPTY_BODY }, config: { audit: { action: 'device.logs.clear', targets: [{ resource: 'device', from: 'params', field: 'uuid', column: 'uuid' }] } } }, async (request, reply) => {
    const deviceId = await access.reader(request.actor, request.params.uuid);
    if (!(await deviceOperationAllowed(db, request.actor, deviceId, 'delete_logs'))) {
      throw new ForbiddenError('Clearing device logs needs resin.device_log.delete on the device\'s fleet');
    }
    await store.clear(deviceId);
    return reply.code(204).send();
  });
}
