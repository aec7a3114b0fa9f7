import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { LogRateLimiter } from './log-rate-limit.js';
import { normalizeLogLine, type LogLineInput } from './log-lines.js';
import type { LogStore } from './log-store.js';
import { NdjsonLines } from './ndjson-lines.js';

export interface IngestLimits {
  /** A raw line longer than this (before parsing) is dropped without being buffered. */
  maxLineBytes: number;
  /** A stream that sends nothing for this long is ended. */
  idleMs: number;
  /** The stream is charged one rate-limit batch per this many lines. */
  linesPerBatch: number;
  /** Reading pauses while this many message characters wait to be stored. */
  maxInflightChars: number;
}

/** What a stream did (answered at its end, logged at debug). */
export interface IngestResult {
  stored: number;
  malformed: number;
  oversized: number;
}

interface Ending {
  status: number;
  message?: string;
  headers?: Record<string, string>;
}

/**
 * `POST /device/v2/{uuid}/log-stream` (dialect §4.5): a long-lived chunked body, gzip or
 * identity, one JSON log object per line. Lines are parsed as chunks arrive and handed to the
 * store at once (it batches writes), so they are readable and fanned out while the device
 * keeps the request open. A malformed line is skipped (counted, logged at debug); a raw line
 * over `maxLineBytes` is dropped without buffering it; reading pauses while too much waits to
 * be stored. The answer comes when the stream ends: 201; 429 (and the connection closed) once
 * the device's rate limit is spent; 201 after `idleMs` without data (the device reconnects);
 * 400 for a body that is not gzip when it says so.
 */
export function ingestLogStream(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: { deviceId: number; store: LogStore; limiter: LogRateLimiter; limits: IngestLimits; log: FastifyBaseLogger },
): Promise<IngestResult> {
  const { deviceId, store, limiter, limits, log } = deps;
  const body = request.body as Readable;
  const encoding = String(request.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  const source: Readable = encoding === 'gzip' || encoding === 'x-gzip' ? body.pipe(createGunzip()) : body;
  const lines = new NdjsonLines(limits.maxLineBytes);
  const result: IngestResult = { stored: 0, malformed: 0, oversized: 0 };
  let received = 0;
  let inflightChars = 0;
  let pending = 0;
  let ending: Ending | undefined;
  let idle: NodeJS.Timeout | undefined;

  return new Promise<IngestResult>((resolve) => {
    let answered = false;
    const answer = () => {
      if (answered || pending > 0 || !ending) return;
      answered = true;
      clearTimeout(idle);
      result.oversized = lines.dropped;
      if (result.malformed > 0 || result.oversized > 0) log.debug({ deviceId, ...result }, 'log stream skipped lines');
      // (The request itself is destroyed once its body has ended: only the socket tells.)
      if (reply.raw.destroyed || reply.sent || request.raw.socket.destroyed) return resolve(result);
      const finished = ending;
      if (finished.headers) reply.headers(finished.headers);
      if (!source.readableEnded) {
        // The device is still sending: close the connection once answered.
        reply.header('connection', 'close');
        reply.raw.once('finish', () => request.raw.destroy());
      }
      reply.code(finished.status);
      if (finished.message === undefined) reply.send();
      else reply.type('application/json').send(JSON.stringify(finished.message));
      resolve(result);
    };
    const finish = (end: Ending) => {
      if (ending) return;
      ending = end;
      source.pause();
      source.removeListener('data', onData);
      answer();
    };
    const store_ = (batch: LogLineInput[]) => {
      if (batch.length === 0) return;
      const chars = batch.reduce((n, l) => n + l.message.length, 0);
      inflightChars += chars;
      pending += 1;
      if (inflightChars > limits.maxInflightChars) source.pause();
      store.append(deviceId, batch).then(
        () => {
          result.stored += batch.length;
          inflightChars -= chars;
          pending -= 1;
          if (!ending && inflightChars <= limits.maxInflightChars && source.isPaused()) source.resume();
          answer();
        },
        (err: unknown) => {
          pending -= 1;
          log.error({ err, deviceId }, 'storing device logs failed');
          finish({ status: 503, message: 'The logs storage is unavailable' });
        },
      );
    };
    const take = (texts: string[]): LogLineInput[] => {
      const batch: LogLineInput[] = [];
      for (const text of texts) {
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          result.malformed += 1;
          continue;
        }
        const line = normalizeLogLine(value);
        if (!line) {
          result.malformed += 1;
          continue;
        }
        if (received % limits.linesPerBatch === 0) {
          const wait = limiter.take(deviceId);
          if (wait > 0) {
            store_(batch);
            finish({ status: 429, message: 'Too Many Requests', headers: { 'retry-after': String(Math.max(1, Math.ceil(wait / 1000))) } });
            return [];
          }
        }
        received += 1;
        batch.push(line);
      }
      return batch;
    };
    const armIdle = () => {
      clearTimeout(idle);
      idle = setTimeout(() => finish({ status: 201 }), limits.idleMs);
    };
    function onData(chunk: Buffer) {
      if (ending) return;
      armIdle();
      store_(take(lines.push(chunk)));
    }
    source.on('data', onData);
    source.once('end', () => {
      if (ending) return;
      store_(take(lines.end()));
      finish({ status: 201 });
    });
    source.once('error', (err) => {
      log.debug({ err, deviceId }, 'log stream body error');
      finish({ status: 400, message: encoding === 'identity' ? 'Invalid log stream' : 'Invalid gzip log stream' });
    });
    // The device went away: what arrived is stored, nothing is answered.
    request.raw.once('close', () => {
      if (!request.raw.complete) finish({ status: 499 });
    });
    armIdle();
  });
}
