import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Largest form body the callback reads (a token is well under this). */
const MAX_CALLBACK_BODY = 64 * 1024;

/** The dashboard page that hands the session to the CLI (spec 1 §2): the callback encoded twice, as balena CLI does. */
export function loginPageUrl(apiUrl: string, callback: string): string {
  return `${apiUrl}/login/cli/${encodeURIComponent(callback).replace(/%/g, '%25')}`;
}

const PAGE = (text: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>Flotilla CLI</title></head><body><p>${text}</p></body></html>`;

/**
 * `flotilla login` without `--token`: listens on 127.0.0.1 (port 0 = any free port), tells
 * the caller which dashboard URL to open, and resolves with the token the dashboard POSTs to
 * `/auth` as the form field `token`. Rejects after `timeoutMs`.
 */
export function receiveTokenFromBrowser(
  apiUrl: string,
  options: { port?: number; timeoutMs: number; onUrl(url: string): void; check(token: string): Promise<boolean> },
): Promise<string> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (err: Error | null, token?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      server.close();
      server.closeAllConnections?.();
      if (err) reject(err);
      else resolve(token!);
    };
    const reply = (res: ServerResponse, status: number, text: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', connection: 'close' });
      res.end(PAGE(text));
    };
    const server = createServer((req: IncomingMessage, res) => {
      const path = (req.url ?? '').split('?')[0];
      if (req.method !== 'POST' || path !== '/auth') {
        reply(res, 404, 'Not found.');
        return;
      }
      let body = '';
      let tooLarge = false;
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => {
        body += chunk;
        if (body.length > MAX_CALLBACK_BODY) {
          tooLarge = true;
          req.destroy();
        }
      });
      req.on('end', () => {
        if (tooLarge) return;
        const token = new URLSearchParams(body).get('token');
        if (!token) {
          reply(res, 400, 'No token was sent.');
          return;
        }
        options.check(token).then(
          (ok) => {
            if (!ok) {
              reply(res, 401, 'That token was not accepted by the server; try again.');
              return;
            }
            reply(res, 200, 'You are logged in to the Flotilla CLI. You can close this window.');
            finish(null, token);
          },
          (err: unknown) => {
            reply(res, 502, 'The CLI could not check the token with the server.');
            finish(err instanceof Error ? err : new Error(String(err)));
          },
        );
      });
    });
    const timer = setTimeout(() => finish(new Error(`no login arrived within ${Math.round(options.timeoutMs / 1000)} s`)), options.timeoutMs);
    server.on('error', (err) => finish(err));
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      options.onUrl(loginPageUrl(apiUrl, `http://127.0.0.1:${port}/auth`));
    });
  });
}
