import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ROLES } from '@flotilla/model';
import { retryConflicts, scopedDb, type Db } from '../db/db.js';
import { HttpError, NotFoundError, UnauthorizedError } from '../errors.js';
import '../http/actor.js';
import type { DataContext } from './permissions.js';
import { odataGet } from './read.js';
import { resourceInfo } from './resources.js';
import { odataDelete, odataPatch, odataPost } from './write.js';
import { linkWebResources } from './web-resource.js';
import { resourcesDroppingFiles } from '../files/garbage.js';
import { parseMultipartBody } from '../files/multipart-body.js';
import type { WebResources } from '../files/web-resources.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Files a multipart/form-data write stored; removed again unless the write succeeded. */
    storedFiles?: { keys: string[]; keep: boolean };
  }
}

/**
 * The data API over HTTP: `GET|POST|PATCH|PUT|DELETE /v7/*`, and `/v6/*` for older
 * supervisors. The handler only maps HTTP onto the engine; errors are typed HttpErrors
 * the global handler turns into the dialect's JSON-string bodies.
 */

const ANONYMOUS: DataContext = { actorId: null, permissions: ROLES.anonymous };
const PREFIXES = ['/v7', '/v6'] as const;

function contextOf(request: FastifyRequest): DataContext {
  const actor = request.actor;
  if (!actor) return ANONYMOUS;
  return actor.apiKeyId !== undefined ? { actorId: actor.actorId, permissions: actor.permissions, apiKeyId: actor.apiKeyId } : { actorId: actor.actorId, permissions: actor.permissions };
}

/** balena's webresource actions: `POST /v7/<resource>(<id>)/beginUpload` and friends. */
const ACTION = /^\/([A-Za-z_]+)\((\d{1,10})\)\/(beginUpload|commitUpload|cancelUpload)$/;
const RESOURCE = /^\/([A-Za-z_]+)/;

export async function dataApiRoutes(app: FastifyInstance, opts: { db: Db; files?: WebResources }): Promise<void> {
  const pool = opts.db;
  const files = opts.files;
  const dropsFiles = resourcesDroppingFiles();
  if (files) {
    // A write whose body holds a file (balena-sdk sends a File as multipart/form-data): the
    // file is streamed to the store, bounded by the largest file a field may hold.
    app.addContentTypeParser('multipart/form-data', (request, payload, done) => {
      // Nobody may write without a credential: refuse before storing anything.
      if (!request.actor) {
        payload.resume();
        return done(new UnauthorizedError());
      }
      parseMultipartBody(request.headers, payload, files.store, files.opts.maxBytes).then(
        ({ body, stored }) => {
          request.storedFiles = { keys: stored, keep: false };
          done(null, body);
        },
        (err: Error) => done(err),
      );
    });
    app.addHook('onResponse', async (request) => {
      const stored = request.storedFiles;
      if (stored && !stored.keep && stored.keys.length > 0) await files.discard(stored.keys);
    });
  }
  const origin = (request: FastifyRequest) => `${request.protocol}://${request.host}`;
  for (const prefix of PREFIXES) {
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      // The raw URL: the engine does its own decoding (quotes and `&` inside strings matter).
      const url = request.url.slice(prefix.length);
      if (url.length <= 1 || url[1] === '?') throw new NotFoundError(`Unknown resource: ${url}`);
      const ctx = contextOf(request);
      // The caller's statements: bounded per request, a fair share of the pool (issue 11).
      const db = scopedDb(pool, request.dbScope);
      const links = files?.linker(origin(request));
      const action = files && request.method === 'POST' ? ACTION.exec(url) : null;
      if (action && files) {
        const [, resource, id, name] = action as unknown as [string, string, string, string];
        if (name === 'beginUpload') return reply.send(await files.beginUpload(db, ctx, resource, Number(id), request.body, origin(request)));
        if (name === 'commitUpload') {
          // The committed file changes the row: recorded in the audit log like a PATCH of it,
          // after the commit (the file store runs its own transaction).
          const auditor = app.context.rules.writeAuditor();
          const model = resourceInfo(resource).name;
          const before = auditor && (await auditor.snapshot(db, model, [Number(id)]));
          const committed = await files.commitUpload(db, ctx, resource, Number(id), request.body, origin(request));
          if (auditor) {
            const after = await auditor.snapshot(db, model, [Number(id)]);
            await auditor.record({ tx: db, ctx, origin: { request, prefix, url }, resource: model, method: 'PATCH', ids: [Number(id)], before, after });
          }
          return reply.send(committed);
        }
        await files.cancelUpload(db, ctx, resource, Number(id), request.body);
        return reply.code(200).send();
      }
      switch (request.method) {
        case 'GET':
        case 'HEAD': {
          // Fastify answers HEAD with the GET route
          // A read can be a deadlock victim too (a migration's DDL locking tables in another order).
          const text = await retryConflicts(() => odataGet(db, ctx, url, links));
          // Audit trails (features/staff-audit) record the read before it is answered.
          for (const observe of app.context.rules.readObservers()) await observe({ request, db, ctx, url, prefix });
          return reply.type('application/json; charset=utf-8').send(text);
        }
        case 'POST': {
          const created = await retryConflicts(() => odataPost(app.context, db, ctx, url, request.body, { request, prefix, url }));
          if (request.storedFiles) request.storedFiles.keep = true;
          return reply
            .code(201)
            .header('location', `${prefix}/${created.resource}(${created.id})`)
            .type('application/json; charset=utf-8')
            .send(linkWebResources(JSON.stringify(created.entity), links));
        }
        case 'PATCH':
        case 'PUT':
          if ((await retryConflicts(() => odataPatch(app.context, db, ctx, url, request.body, { request, prefix, url }))).length > 0 && request.storedFiles) request.storedFiles.keep = true;
          // An overwritten (or cleared) file goes once the change has committed.
          if (files && dropsFiles.has(RESOURCE.exec(url)?.[1] ?? '')) await files.sweep();
          return reply.code(200).send();
        case 'DELETE':
          await retryConflicts(() => odataDelete(app.context, db, ctx, url, { request, prefix, url }));
          if (files && dropsFiles.has(RESOURCE.exec(url)?.[1] ?? '')) await files.sweep();
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
