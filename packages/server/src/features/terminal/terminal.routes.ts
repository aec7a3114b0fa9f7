import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { TERMINAL_LIMITS, TERMINAL_PATH } from '@flotilla/model';
import type { Authenticator } from '../../infra/auth/authenticate.js';
import type { Db } from '../../infra/db/db.js';
import { ForbiddenError } from '../../infra/errors.js';
import { TerminalConnection } from './terminal-connection.js';
import { closeStaleSessions, touchSessions } from './terminal.repository.js';

export interface TerminalOptions {
  db: Db;
  authenticator: Authenticator;
  /** FLOTILLA_PUBLIC_URL: the dashboard's origin. */
  publicUrl: string;
  /** How long a device has to start the TTY (default 15 s). */
  openTimeoutMs?: number;
  authTimeoutMs?: number;
  /** How often this process marks its sessions alive and closes those of dead processes (default 60 s). */
  heartbeatMs?: number;
}

/**
 * Cross-site WebSocket hijacking: a page elsewhere could open the terminal with the user's
 * cookies or a token it got somehow, so a browser's Origin must be the dashboard's: the
 * configured public URL, or the origin this request reached (the dashboard is served from
 * the same server). Non-browser clients send no Origin and authenticate with their token.
 */
export function originAllowed(request: FastifyRequest, publicOrigin: string): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  if (origin === publicOrigin) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return url.origin === origin && url.host === request.headers.host && url.protocol === `${request.protocol}:`;
}

/** `GET /terminal/v1`: the browser terminal WebSocket (protocol: @flotilla/model live-operations.ts). */
export const terminalRoutes: FastifyPluginAsync<TerminalOptions> = async (app, opts) => {
  const publicOrigin = new URL(opts.publicUrl).origin;
  const serverInstance = randomUUID();
  const heartbeatMs = opts.heartbeatMs ?? 60_000;
  const open = new Set<TerminalConnection>();
  const deps = {
    db: opts.db,
    bus: app.bus,
    authenticator: opts.authenticator,
    log: app.log,
    serverInstance,
    openTimeoutMs: opts.openTimeoutMs ?? 15_000,
    authTimeoutMs: opts.authTimeoutMs ?? TERMINAL_LIMITS.authTimeoutMs,
  };
  // The audit trail of a process that died: its rows stop moving and are closed here.
  const sweep = async () => {
    await touchSessions(opts.db, serverInstance);
    await closeStaleSessions(opts.db, heartbeatMs * 3, 'the server relaying the session stopped');
  };
  await sweep().catch((err: unknown) => app.log.error({ err }, 'terminal: audit sweep failed'));
  const sweeper = setInterval(() => void sweep().catch((err: unknown) => app.log.error({ err }, 'terminal: audit sweep failed')), heartbeatMs);
  sweeper.unref();
  app.addHook('onClose', async () => {
    clearInterval(sweeper);
    await Promise.all([...open].map((c) => c.end('the server stopped', 1001)));
  });
  // A refused upgrade still holds the raw socket: end it once answered.
  app.addHook('onResponse', async (request) => {
    if (request.headers.upgrade?.toLowerCase() === 'websocket') request.raw.socket?.destroy();
  });

  app.get(
    TERMINAL_PATH,
    {
      websocket: true,
      // The browser sends its token in the first frame (a WebSocket carries no header of ours).
      config: { handlesAuthError: true },
      preValidation: async (request) => {
        if (!originAllowed(request, publicOrigin)) throw new ForbiddenError('Origin not allowed');
      },
    },
    (socket) => {
      const connection = new TerminalConnection(socket, deps, (c) => open.delete(c));
      open.add(connection);
    },
  );
};
