import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** The content codings the server produces, in its order of preference on a tie. */
export type ContentCoding = 'br' | 'gzip';
export type Coding = ContentCoding | 'identity';

/**
 * Dynamic responses smaller than this go out as they are: ~one TCP segment (MSS 1460 less
 * headers), so compressing them saves no packet and no round trip, only CPU.
 */
export const COMPRESSION_THRESHOLD_BYTES = 1400;

/**
 * Dynamic (per-request) compression levels, measured on a 31 KB page of the fleet list
 * (docs/decisions.md): brotli 3 makes it 1.7 KB in about a third of gzip 6's time (brotli 4
 * switches to a slower matcher for 1 % less); gzip 1 makes 2.3 KB, 7 % more than gzip 6 at a
 * quarter of its time. The top levels are kept for the dashboard's files, compressed once
 * (features/web/static-assets.ts).
 */
const DYNAMIC_BROTLI_QUALITY = 3;
const DYNAMIC_GZIP_LEVEL = 1;

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * The coding to answer with, from the request's Accept-Encoding (RFC 9110 §12.5.3) and the
 * codings available: the highest q-value wins, `q=0` refuses a coding, `*` stands for every
 * coding not named, and identity is acceptable unless refused (explicitly or by `*;q=0`).
 * Ties go to the order of `offered` (brotli before gzip). With no header, identity.
 * When every offered coding and identity are refused the answer is identity all the same
 * (RFC 9110 allows it; a 406 would help nobody).
 */
export function negotiateEncoding(header: string | string[] | undefined, offered: readonly ContentCoding[]): Coding {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value || offered.length === 0) return 'identity';
  const q = new Map<string, number>();
  for (const part of value.split(',')) {
    const [rawName, ...params] = part.split(';');
    let name = rawName?.trim().toLowerCase() ?? '';
    if (!name) continue;
    if (name === 'x-gzip') name = 'gzip';
    let weight = 1;
    for (const param of params) {
      const [k, v] = param.split('=').map((s) => s.trim());
      if (k?.toLowerCase() === 'q') {
        const n = Number(v);
        weight = Number.isFinite(n) ? Math.min(Math.max(n, 0), 1) : 0;
      }
    }
    // A coding named twice keeps its highest weight.
    q.set(name, Math.max(q.get(name) ?? 0, weight));
  }
  const star = q.get('*');
  const weightOf = (coding: string) => q.get(coding) ?? star ?? (coding === 'identity' ? undefined : 0);
  let best: Coding = 'identity';
  let bestWeight = 0;
  for (const coding of offered) {
    const w = weightOf(coding) ?? 0;
    if (w > bestWeight) {
      best = coding;
      bestWeight = w;
    }
  }
  if (best === 'identity') return 'identity';
  // identity keeps a tie with a coding only when the coding is not wanted more.
  const identity = weightOf('identity');
  return identity !== undefined && identity > bestWeight ? 'identity' : best;
}

/**
 * If-None-Match by the weak comparison RFC 9110 §13.1.2 requires: `W/"x"` matches `"x"`, so
 * an ETag made weak by compression (below) still gets its 304.
 */
export function etagMatches(ifNoneMatch: string | string[] | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const value = Array.isArray(ifNoneMatch) ? ifNoneMatch.join(',') : ifNoneMatch;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return value.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === wanted);
}

/** Adds `Accept-Encoding` to the reply's Vary header (once). */
export function varyOnAcceptEncoding(reply: FastifyReply): void {
  const current = reply.getHeader('vary');
  const list = (Array.isArray(current) ? current.join(',') : String(current ?? '')).split(',').map((s) => s.trim()).filter(Boolean);
  if (list.includes('*') || list.some((v) => v.toLowerCase() === 'accept-encoding')) return;
  reply.header('vary', [...list, 'Accept-Encoding'].join(', '));
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `false`: the route chooses its coding itself (the dashboard's pre-compressed files), so
     * the app-wide compression leaves its answers as they are.
     */
    compress?: false;
  }
}

const COMPRESSIBLE_TYPE = /^(text\/|application\/([a-z.+-]*\+)?(json|xml|javascript)\b)/i;

/** Compresses one body with the dynamic levels. */
export async function compressBody(body: Buffer, coding: ContentCoding): Promise<Buffer> {
  return coding === 'br'
    ? brotliAsync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : gzipAsync(body, { level: DYNAMIC_GZIP_LEVEL });
}

/**
 * Compresses every text/JSON response body of `thresholdBytes` or more with the coding the
 * client prefers (brotli or gzip), for the whole app: one onSend hook, so each route stays
 * unaware. Left alone: routes with `config: { compress: false }`, streams (log streams, server-sent events: their payload is not a
 * string or Buffer), WebSockets (hijacked, no onSend), bodies already encoded (the
 * dashboard's pre-compressed files), 204/304, and `Cache-Control: no-transform`.
 * A compressed response's strong ETag becomes weak (the bytes differ from the identity
 * representation's); routes compare If-None-Match with `etagMatches`, which is weak.
 */
export function installCompression(app: FastifyInstance, thresholdBytes = COMPRESSION_THRESHOLD_BYTES): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (request.routeOptions.config?.compress === false) return payload;
    if (reply.statusCode === 204 || reply.statusCode === 304 || reply.statusCode < 200) return payload;
    if (reply.hasHeader('content-encoding')) return payload;
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !COMPRESSIBLE_TYPE.test(type)) return payload;
    if (/\bno-transform\b/i.test(String(reply.getHeader('cache-control') ?? ''))) return payload;
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    if (body.length < thresholdBytes) return payload;
    // Whether it is compressed now depends on Accept-Encoding: caches must know.
    varyOnAcceptEncoding(reply);
    const coding = negotiateEncoding(request.headers['accept-encoding'], ['br', 'gzip']);
    if (coding === 'identity') return payload;
    const compressed = await compressBody(body, coding);
    if (compressed.length >= body.length) return payload;
    reply.header('content-encoding', coding);
    const etag = reply.getHeader('etag');
    if (typeof etag === 'string' && etag.startsWith('"')) reply.header('etag', `W/${etag}`);
    // Fastify sets Content-Length from the payload it finally sends.
    reply.removeHeader('content-length');
    return compressed;
  });
}
