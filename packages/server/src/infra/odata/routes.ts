import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ROLES } from '@flotilla/model';
import { scopedDb, type Db } from '../db/db.js';
import { HttpError, NotFoundError } from '../errors.js';
import '../http/actor.js';
import type { DataContext } from './permissions.js';
import { odataGet } from './read.js';
import { odataDelete, odataPatch, odataPost } from './write.js';

/**
 * The data API over HTTP: `GET|POST|PATCH|PUT|DELETE /v7/*`, and `/v6/*` for older
 * supervisors. The handler only maps HTTP onto the engine; errors are typed HttpErrors
 * the global handler turns into the dialect's JSON-string bodies.
 */

const ANONYMOUS: DataContext = { actorId: null, permissions: ROLES.anonymous };
const PREFIXES = ['/v7', '/v6'] as const;

function contextOf(request: FastifyRequest): DataContext {
  const actor = request.actor;
  return actor ? { actorId: actor.actorId, permissions: actor.permissions } : ANONYMOUS;
}

export async function dataApiRoutes(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const pool = opts.db;
  for (const prefix of PREFIXES) {
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      // The raw URL: the engine does its own decoding (quotes and `&` inside strings matter).
      const url = request.url.slice(prefix.length);
      if (url.length <= 1 || url[1] === '?') throw new NotFoundError(`Unknown resource: ${url}`);
      const ctx = contextOf(request);
      // The caller's statements: bounded per request, a fair share of the pool (issue 11).
      const db = scopedDb(pool, request.dbScope);
      switch (request.method) {
        case 'GET':
        case 'HEAD': // Fastify answers HEAD with the GET route
          return reply.type('application/json; charset=utf-8').send(await odataGet(db, ctx, url));
        case 'POST': {
          const created = await odataPost(db, ctx, url, request.body);
          return reply.code(201).header('location', `${prefix}/${created.resource}(${created.id})`).send(created.entity);
        }
        case 'PATCH':
        case 'PUT':
          await odataPatch(db, ctx, url, request.body);
          return reply.code(200).send();
        case 'DELETE':
          await odataDelete(db, ctx, url);
          return reply.code(200).send();
        default:
          throw new HttpError(405, `Method not allowed: ${request.method}`);
      }
    };
    app.route({
      method: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'],
      url: `${prefix}/*`,
      // The URL is parsed by the OData parser and bodies are checked against the model (validate.ts).
      config: { ownInput: 'OData URL parsed by the OData parser; bodies validated against the model' },
      handler,
    });
  }
}
