import { BadGatewayError, GatewayTimeoutError, HttpError, NotFoundError } from '../errors.js';

/** How the server reads a file from an outside host (a code host) on a caller's behalf. */
export interface OutsideFetchOptions {
  /** The `accept` header sent. */
  accept: string;
  /** The whole read (redirects and body) is abandoned after this long: 504. */
  timeoutMs: number;
  /** A larger answer (declared or read) is not the file asked for: the read answers null. */
  maxBytes: number;
  /**
   * Redirects followed, and only within the URL's own origin (a redirect elsewhere could
   * point the server at an internal address); 0 follows none. A redirect not followed is
   * answered as a failure (502).
   */
  maxRedirects?: number;
  /** The start of every failure message, e.g. 'Failed retrieving data from GitHub'. */
  failed: string;
  /** The 404 message. */
  notFound: string;
}

async function fetchWithinOrigin(url: string, signal: AbortSignal, accept: string, maxRedirects: number): Promise<Response> {
  const origin = new URL(url).origin;
  let current = url;
  for (let hop = 0; ; hop++) {
    const res = await fetch(current, { redirect: 'manual', signal, headers: { accept } });
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location) return res;
    const next = new URL(location, current);
    if (next.origin !== origin || hop >= maxRedirects) return res;
    current = next.toString();
  }
}

/** The body, read only up to `maxBytes` (an answer without a length is not read to its end). */
async function readLimited(res: Response, maxBytes: number): Promise<string | null> {
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > maxBytes || !res.body) {
    await res.body?.cancel().catch(() => undefined);
    return declared > maxBytes ? null : '';
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The text at `url` on an outside host, read with the limits above (null when it is larger
 * than `maxBytes`). Failures are the caller's errors: 404 → NotFoundError(`notFound`), any
 * other non-2xx → 502 `<failed> (HTTP n)`, no answer in time → 504 `<failed>: no answer
 * within n s`, no connection → 502 `<failed>: the code host is unreachable`.
 */
export async function fetchOutsideText(url: string, opts: OutsideFetchOptions): Promise<string | null> {
  const signal = AbortSignal.timeout(opts.timeoutMs);
  try {
    const res = await fetchWithinOrigin(url, signal, opts.accept, opts.maxRedirects ?? 0);
    if (res.status === 404) throw new NotFoundError(opts.notFound);
    if (!res.ok) throw new BadGatewayError(`${opts.failed} (HTTP ${res.status})`);
    return await readLimited(res, opts.maxBytes);
  } catch (err) {
    if (err instanceof HttpError) throw err;
    if (signal.aborted) throw new GatewayTimeoutError(`${opts.failed}: no answer within ${Math.round(opts.timeoutMs / 100) / 10} s`);
    throw new BadGatewayError(`${opts.failed}: the code host is unreachable`);
  }
}
