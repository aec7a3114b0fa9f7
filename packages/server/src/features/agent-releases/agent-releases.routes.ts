import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAX_AGENT_BUILD_BYTES } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { ForbiddenError, NotFoundError, PayloadTooLargeError, UnauthorizedError } from '../../infra/errors.js';
import { etagMatches } from '../../infra/http/compression.js';
import { requireUser } from '../../infra/http/guards.js';
import { selectSupervisorBuild, selectSupervisorBuildContent } from './agent-releases.repository.js';
import { publishAgentBuild } from './agent-releases.service.js';

const MB = MAX_AGENT_BUILD_BYTES / (1024 * 1024);

/** Platform administrators only (permission `admin.home`), as the other /admin routes. */
function requirePlatformAdministrator(request: FastifyRequest): { userId: number } {
  const actor = requireUser(request);
  if (actor.claims?.twoFactorRequired === true) throw new UnauthorizedError('Two-factor authentication is required');
  if (!actor.permissions.includes('admin.home')) throw new ForbiddenError('Only platform administrators may publish supervisor releases');
  return actor;
}

const publishQuery = {
  type: 'object',
  required: ['version', 'arch'],
  additionalProperties: false,
  properties: { version: { type: 'string', maxLength: 64 }, arch: { type: 'string', minLength: 1, maxLength: 64 } },
} as const;

/** The download path of release `releaseId`'s agent build (what the target state names). */
export const agentBuildPath = (releaseId: number): string => `/download/agent/releases/${releaseId}`;

/**
 * Flotilla's agent builds as supervisor releases (issue 17 item 4):
 * - `POST /admin/v1/supervisor-releases?version=&arch=` with the build as an
 *   application/octet-stream body (≤ MAX_AGENT_BUILD_BYTES): a release of the supervisor
 *   block of `arch` (or of every architecture, `all`) carrying the build; 201 `{releases}`.
 * - `GET /download/agent/releases/{id}`: the build of a supervisor release, public like
 *   `GET /download/agent` and the catalogue; strong ETag and `x-checksum-sha256` are its sha256.
 */
export async function agentReleasesRoutes(app: FastifyInstance, { db }: { db: Db }): Promise<void> {
  app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: MAX_AGENT_BUILD_BYTES }, (_req, body, done) => done(null, body));

  app.post<{ Querystring: { version: string; arch: string }; Body: Buffer | undefined }>(
    '/admin/v1/supervisor-releases',
    {
      schema: { querystring: publishQuery },
      config: { noStore: true, ownInput: `the agent build itself (application/octet-stream, at most ${MB} MB), checked by publishAgentBuild` },
      // Before the body is read: anonymous callers get 401, others 403, a declared size above the limit 413.
      onRequest: async (request) => {
        requirePlatformAdministrator(request);
        const length = Number(request.headers['content-length'] ?? 0);
        if (length > MAX_AGENT_BUILD_BYTES) throw new PayloadTooLargeError(`The agent build is larger than ${MB} MB`);
      },
    },
    async (request, reply) => {
      const admin = requirePlatformAdministrator(request);
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const releases = await publishAgentBuild(db, admin.userId, request.query.version, request.query.arch, body);
      request.log.info({ administratorId: admin.userId, releases: releases.map((r) => r.id) }, `supervisor release ${request.query.version} published`);
      return reply.code(201).send({ releases });
    },
  );

  const params = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } } } as const;
  app.get<{ Params: { id: number } }>('/download/agent/releases/:id', { schema: { params }, config: { compress: false } }, async (request, reply) => {
    const build = await selectSupervisorBuild(db, request.params.id);
    if (!build) throw new NotFoundError('This release has no agent build');
    let body: Buffer | null;
    let sha256: string;
    if (build.bundled) {
      const bundle = await app.agentBundle();
      body = bundle.body;
      sha256 = bundle.sha256;
    } else {
      body = await selectSupervisorBuildContent(db, request.params.id);
      sha256 = build.sha256 ?? '';
    }
    if (!body) throw new NotFoundError('This release has no agent build');
    const etag = `"${sha256}"`;
    reply
      .header('cache-control', 'no-cache')
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('content-disposition', `attachment; filename="flotilla-agent-${build.version}.mjs"`)
      .header('etag', etag)
      .header('x-checksum-sha256', sha256);
    if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
    return reply.send(body);
  });
}
