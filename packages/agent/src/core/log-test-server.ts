import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import type { DeviceLogInput } from '@flotilla/model';

/**
 * A test double of balena's log-stream endpoint for the agent's unit specs: a local
 * node:http server that gunzips each `POST /device/v2/{uuid}/log-stream` body and records its
 * NDJSON lines as they arrive (before the request ends), per request. `answer` decides a
 * request's fate: 200 when the body ends (default), or an immediate status (401, 429 …).
 */

export interface RecordedStream {
  uuid: string;
  headers: http.IncomingHttpHeaders;
  lines: DeviceLogInput[];
  ended: boolean;
}

export interface LogTestServer {
  url: string;
  streams: RecordedStream[];
  /** Every line of every stream, in arrival order. */
  lines(): DeviceLogInput[];
  answer: (req: http.IncomingMessage, index: number) => { status: number; headers?: Record<string, string> } | null;
  /** Resolves once `probe` holds (checked on every received line and stream event). */
  until(probe: () => boolean, what?: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startLogTestServer(): Promise<LogTestServer> {
  const streams: RecordedStream[] = [];
  const waiters: { probe: () => boolean; resolve: () => void }[] = [];
  const check = () => {
    for (const w of [...waiters]) {
      if (!w.probe()) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };
  const server = http.createServer((req, res) => {
    const m = /^\/device\/v2\/([^/]+)\/log-stream$/.exec(req.url ?? '');
    if (!m || req.method !== 'POST') {
      res.writeHead(404).end();
      return;
    }
    const rec: RecordedStream = { uuid: decodeURIComponent(m[1]!), headers: req.headers, lines: [], ended: false };
    const index = streams.push(rec) - 1;
    check();
    const early = self.answer(req, index);
    if (early) {
      res.writeHead(early.status, { 'content-type': 'text/plain', ...early.headers }).end(`refused ${early.status}`);
      req.resume();
      return;
    }
    const gunzip = zlib.createGunzip();
    let rest = '';
    gunzip.on('data', (chunk: Buffer) => {
      const parts = (rest + chunk.toString('utf8')).split('\n');
      rest = parts.pop()!;
      for (const p of parts) if (p.trim() !== '') rec.lines.push(JSON.parse(p) as DeviceLogInput);
      check();
    });
    gunzip.on('end', () => {
      rec.ended = true;
      res.writeHead(201).end();
      check();
    });
    gunzip.on('error', () => res.writeHead(400).end());
    req.pipe(gunzip);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const self: LogTestServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    streams,
    lines: () => streams.flatMap((s) => s.lines),
    answer: () => null,
    until: (probe, what = 'condition', timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        if (probe()) return resolve();
        const timer = setTimeout(() => reject(new Error(`log test server: timed out waiting for ${what}`)), timeoutMs);
        waiters.push({
          probe,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return self;
}
