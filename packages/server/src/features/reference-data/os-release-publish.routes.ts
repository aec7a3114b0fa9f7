import { OS_RELEASE_TEXT_MAX, type OsReleasePublishInput } from '@flotilla/model';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../infra/db/db.js';
import { ForbiddenError, UnauthorizedError } from '../../infra/errors.js';
import { requireUser } from '../../infra/http/guards.js';
import { publishOsRelease, withdrawOsRelease } from './os-release-publish.service.js';

export const OS_RELEASES_ADMIN_PATH = '/admin/v1/os-releases';
export const ONLY_ADMINISTRATORS_PUBLISH = 'Only platform administrators may publish or withdraw OS releases';

/** Platform administrators only (`admin.home`): 401 signed out (or a second factor pending), 403 for everybody else. */
function requirePlatformAdministrator(request: FastifyRequest): void {
  const actor = requireUser(request);
  if (actor.claims?.twoFactorRequired === true) throw new UnauthorizedError('Two-factor authentication is required');
  if (!actor.permissions.includes('admin.home')) throw new ForbiddenError(ONLY_ADMINISTRATORS_PUBLISH);
}

// Types and lengths only: the model's checkOsReleasePublish gives the messages (the form shows the same).
const text = (max: number) => ({ type: ['string', 'null'], maxLength: max }) as const;
const publishBody = {
  type: 'object',
  properties: {
    deviceType: { type: 'string', maxLength: 100 },
    version: { type: 'string', maxLength: 100 },
    variant: { type: 'string', maxLength: 10 },
    phase: text(20),
    basedOn: text(100),
    knownIssues: text(OS_RELEASE_TEXT_MAX),
    releaseNotes: text(OS_RELEASE_TEXT_MAX),
  },
  required: ['deviceType', 'version', 'variant'],
  additionalProperties: false,
} as const;
// Withdrawing takes no body (an empty object, or none).
const emptyBody = { type: ['object', 'null'], additionalProperties: false } as const;
const idParams = { type: 'object', properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } }, required: ['id'] } as const;
const authorize = { preValidation: async (request: FastifyRequest) => requirePlatformAdministrator(request) };

/**
 * Host OS releases of the public catalogue (issue 17), platform administrators only:
 * `POST /admin/v1/os-releases` publishes one (201 with the release), `POST
 * /admin/v1/os-releases/:id/withdraw` withdraws one (`is_invalidated`). Reading stays
 * balena-sdk's `os.*` over the data API (public).
 */
export async function osReleasePublishRoutes(app: FastifyInstance, { db, clock }: { db: Db; clock: () => number }): Promise<void> {
  app.post<{ Body: OsReleasePublishInput }>(
    OS_RELEASES_ADMIN_PATH,
    { schema: { body: publishBody }, bodyLimit: 16 * 1024, config: { noStore: true }, ...authorize },
    async (request, reply) => {
      requirePlatformAdministrator(request);
      const release = await publishOsRelease(db, request.body, new Date(clock()));
      request.log.info({ userId: request.actor?.userId, release: release.id, rawVersion: release.raw_version, fleet: release.fleet }, 'OS release published');
      return reply.code(201).send(release);
    },
  );
  app.post<{ Params: { id: number } }>(
    `${OS_RELEASES_ADMIN_PATH}/:id/withdraw`,
    { schema: { params: idParams, body: emptyBody }, bodyLimit: 1024, config: { noStore: true }, ...authorize },
    async (request) => {
      requirePlatformAdministrator(request);
      const withdrawn = await withdrawOsRelease(db, request.params.id);
      request.log.info({ userId: request.actor?.userId, release: withdrawn.id, rawVersion: withdrawn.raw_version }, 'OS release withdrawn');
      return withdrawn;
    },
  );
}
