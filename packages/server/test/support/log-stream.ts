import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { constants, createGzip, type Gzip } from 'node:zlib';

/**
 * A device's log stream as a stock balena supervisor sends it (tests): a chunked POST to
 * `/device/v2/{uuid}/log-stream` with `Content-Type: application/x-ndjson` and, by default,
 * `Content-Encoding: gzip`, each write flushed with Z_SYNC_FLUSH, kept open until `end`.
 */
export class SupervisorLogStream {
  readonly response: Promise<{ status: number; body: string; headers: IncomingMessage['headers'] }>;
  private readonly req: ClientRequest;
  private readonly gzip: Gzip | undefined;

  constructor(baseUrl: string, uuid: string, key: string | null, opts: { gzip?: boolean; contentType?: string } = {}) {
    const url = new URL(`/device/v2/${uuid}/log-stream`, baseUrl);
    const useGzip = opts.gzip !== false;
    this.req = httpRequest(url, {
      method: 'POST',
      headers: {
        ...(key === null ? {} : { authorization: `Bearer ${key}` }),
        'content-type': opts.contentType ?? 'application/x-ndjson',
        ...(useGzip ? { 'content-encoding': 'gzip' } : {}),
        'transfer-encoding': 'chunked',
      },
    });
    this.response = new Promise((resolve, reject) => {
      this.req.once('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.once('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
        res.once('error', reject);
      });
      this.req.once('error', reject);
    });
    // A refused stream may close before everything was written: the answer says why.
    this.response.catch(() => undefined);
    this.req.on('error', () => undefined);
    if (useGzip) {
      this.gzip = createGzip();
      this.gzip.pipe(this.req);
      this.gzip.on('error', () => undefined);
    }
    this.req.flushHeaders();
  }

  /** Writes log objects (or raw text lines) and flushes them to the server at once. */
  write(...lines: (object | string)[]): void {
    const text = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
    this.raw(text);
  }

  /** Writes bytes as they are (may be part of a line). */
  raw(text: string | Buffer): void {
    if (this.gzip) {
      this.gzip.write(text);
      this.gzip.flush(constants.Z_SYNC_FLUSH);
    } else this.req.write(text);
  }

  /** Ends the body; resolves with the server's answer. */
  async end(): Promise<{ status: number; body: string; headers: IncomingMessage['headers'] }> {
    if (this.gzip) this.gzip.end();
    else this.req.end();
    return this.response;
  }

  abort(): void {
    this.req.destroy();
  }
}

/** A log line as a supervisor writes it. */
export const logLine = (message: string, extra: Record<string, unknown> = {}) => ({ message, timestamp: Date.now(), isSystem: false, isStdErr: false, ...extra });
