import http from 'node:http';
import net from 'node:net';
import type { FuzzRequest } from './request.js';

/** What came back: status 0 when no HTTP answer arrived (connection error, timeout). */
export interface Answer {
  status: number;
  body: string;
  ms: number;
  error?: string;
}

// Node's client refuses request targets outside U+0021–U+00FF; those go over a raw socket.
const SENDABLE = /^[\u0021-\u00ff]*$/;
const TIMEOUT_MS = 15_000;
/** Streams (log streams) are answered once their headers arrive; the rest is not awaited. */
const isStream = (res: http.IncomingMessage) => /ndjson|event-stream/.test(String(res.headers['content-type'] ?? '')) && res.headers['content-length'] === undefined;

/** Sends `req` to `base` (http://host:port) over real HTTP, timing until the whole answer is read. */
export function send(agent: http.Agent, base: URL, req: FuzzRequest): Promise<Answer> {
  if (!SENDABLE.test(req.path)) return sendRaw(base, req);
  const started = performance.now();
  return new Promise((resolve) => {
    let done = false;
    const finish = (a: Omit<Answer, 'ms'>) => {
      if (done) return;
      done = true;
      resolve({ ...a, ms: performance.now() - started });
    };
    let headers: Record<string, string>;
    try {
      headers = { ...req.headers, ...(req.body !== undefined ? { 'content-length': String(Buffer.byteLength(req.body)) } : {}) };
      const r = http.request({ agent, host: base.hostname, port: base.port, method: req.method, path: req.path, headers, timeout: TIMEOUT_MS, insecureHTTPParser: false }, (res) => {
        const chunks: Buffer[] = [];
        if (isStream(res)) {
          const status = res.statusCode ?? 0;
          res.destroy();
          finish({ status, body: '(stream)' });
          return;
        }
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => finish({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (err) => finish({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), error: err.message }));
      });
      r.on('timeout', () => r.destroy(new Error('timeout')));
      r.on('error', (err) => finish({ status: 0, body: '', error: err.message }));
      if (req.body !== undefined) r.end(req.body);
      else r.end();
    } catch (err) {
      // A header Node itself refuses to send: go raw.
      void sendRaw(base, req).then((a) => finish(a));
      void err;
    }
  });
}

/** One request written byte by byte on a fresh socket (`Connection: close`), the answer read to the end. */
export function sendRaw(base: URL, req: FuzzRequest): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = net.connect(Number(base.port), base.hostname);
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (error?: string) => {
      if (done) return;
      done = true;
      socket.destroy();
      const text = Buffer.concat(chunks).toString('utf8');
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      const split = text.indexOf('\r\n\r\n');
      resolve({ status: m ? Number(m[1]) : 0, body: split >= 0 ? text.slice(split + 4) : '', ms: performance.now() - started, ...(m ? {} : { error: error ?? 'no HTTP answer' }) });
    };
    socket.setTimeout(TIMEOUT_MS, () => finish('timeout'));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => finish());
    socket.on('close', () => finish());
    socket.on('error', (err) => finish(err.message));
    const body = req.body !== undefined ? Buffer.from(req.body) : undefined;
    const head = [`${req.method} ${req.path} HTTP/1.1`, `Host: ${base.host}`, 'Connection: close'];
    for (const [k, v] of Object.entries(req.headers)) head.push(`${k}: ${v}`);
    if (body) head.push(`Content-Length: ${body.length}`);
    socket.write(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'utf8'), ...(body ? [body] : [])]));
  });
}
