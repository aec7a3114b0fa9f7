import type { FastifyInstance } from 'fastify';
import type { DbScope } from '../db/db.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Bounds of this request's database work; routes pass it to `scopedDb` (infra/db/db.ts). */
    dbScope?: DbScope;
  }
}

/** Each statement a request runs is cancelled after this long (a 503 with a message). */
export const STATEMENT_TIMEOUT_MS = 10_000;

/**
 * Gives every HTTP request a DbScope (infra/db/db.ts): a route that runs the caller's
 * database work through `scopedDb(db, request.dbScope)` has each statement bounded by the
 * statement timeout, cancelled when the client disconnects before its answer, and counted
 * against the caller's fair share of the pool (its actor, or its address when anonymous).
 * The data API (/v7, where the caller shapes the query) does; hand-written routes run fixed
 * statements and do not. WebSocket upgrades (cloud links) live for hours and get none.
 */
export function installDbScope(app: FastifyInstance, statementTimeoutMs = STATEMENT_TIMEOUT_MS): void {
  app.decorateRequest('dbScope', undefined);
  app.addHook('onRequest', (request, reply, done) => {
    if (request.headers.upgrade !== undefined) return done();
    const abort = new AbortController();
    const scope: DbScope = {
      key: () => (request.actor ? `actor ${request.actor.actorId}` : `address ${request.ip}`),
      signal: abort.signal,
      statementTimeoutMs,
    };
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) abort.abort();
      scope.signal = undefined;
    });
    request.dbScope = scope;
    done();
  });
}
