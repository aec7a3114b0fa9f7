import type { FastifyInstance } from 'fastify';
import { runInDbScope, type DbScope } from '../db/db.js';

/** Each statement a request runs is cancelled after this long (a 503 with a message). */
export const STATEMENT_TIMEOUT_MS = 10_000;

/**
 * Every HTTP request's database work runs in a DbScope (infra/db/db.ts): each statement is
 * bounded by the statement timeout, cancelled when the client disconnects before its
 * answer, and counted against the caller's fair share of the pool (its actor, or its
 * address when anonymous). WebSocket upgrades (cloud links) live for hours and are not
 * requests in this sense.
 */
export function installDbScope(app: FastifyInstance, statementTimeoutMs = STATEMENT_TIMEOUT_MS): void {
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
    runInDbScope(scope, done);
  });
}
