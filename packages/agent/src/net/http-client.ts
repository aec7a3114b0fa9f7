import http from 'node:http';
import https from 'node:https';

/**
 * A small JSON-over-HTTP client on node:http with one keep-alive agent per process: every
 * simulated device shares its sockets (`maxSockets` bounds them), which is what lets one
 * process drive thousands of devices.
 */

export interface HttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export interface RequestOptions {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    message: string,
  ) {
    super(message);
  }
}

export class HttpClient {
  readonly base: URL;
  private readonly agent: http.Agent;
  private readonly transport: typeof http | typeof https;

  constructor(baseUrl: string, { maxSockets = 256, localAddress }: { maxSockets?: number; localAddress?: string } = {}) {
    this.base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
    const secure = this.base.protocol === 'https:';
    this.transport = secure ? https : http;
    const options = { keepAlive: true, maxSockets, ...(localAddress !== undefined ? { localAddress } : {}) };
    this.agent = secure ? new https.Agent(options) : new http.Agent(options);
  }

  url(path: string): URL {
    return new URL(path.replace(/^\//, ''), this.base);
  }

  request(opts: RequestOptions): Promise<HttpResponse> {
    const url = this.url(opts.path);
    const payload = opts.body === undefined ? undefined : Buffer.from(JSON.stringify(opts.body));
    const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(payload.length);
    }
    return new Promise((resolve, reject) => {
      const req = this.transport.request(url, { method: opts.method, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.setTimeout(opts.timeoutMs ?? 30_000, () => req.destroy(new Error(`${opts.method} ${opts.path} timed out`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** Like `request` but throws `HttpError` unless the status is one of `ok`. */
  async expect(opts: RequestOptions, ok: number[]): Promise<HttpResponse> {
    const res = await this.request(opts);
    if (!ok.includes(res.status)) {
      throw new HttpError(res.status, res.text, `${opts.method} ${opts.path} answered ${res.status}: ${res.text.slice(0, 200)}`);
    }
    return res;
  }

  close(): void {
    this.agent.destroy();
  }
}

export function parseJson(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
