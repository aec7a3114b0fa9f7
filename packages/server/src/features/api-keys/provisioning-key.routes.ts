import type { FastifyInstance } from 'fastify';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import { requireUser } from '../../infra/http/guards.js';
import { objectOf, SHORT_CODE } from '../../infra/http/schemas.js';
import { parseExpiry } from '../../infra/auth/api-keys.js';
import { createProvisioningKey, type ProvisioningKeyInput } from './provisioning-key.service.js';

const keyDetails = {
  name: { type: ['string', 'null'], maxLength: 255 },
  description: { type: ['string', 'null'], maxLength: 10000 },
  expiryDate: { type: ['string', 'null'], maxLength: 64 },
} as const;

const v2Schema = objectOf(
  {
    actorType: SHORT_CODE,
    actorTypeId: { type: 'integer', minimum: 1 },
    roles: { type: 'array', maxItems: 16, items: SHORT_CODE },
    ...keyDetails,
  },
  ['actorType', 'actorTypeId', 'roles'],
);

interface KeyDetails {
  name?: string | null;
  description?: string | null;
  expiryDate?: string | null;
}
interface V2Body extends KeyDetails {
  actorType: string;
  actorTypeId: number;
  roles: string[];
}

function detailsOf(body: KeyDetails | undefined): ProvisioningKeyInput {
  const name = body?.name?.trim() || null;
  return { name, description: body?.description ?? null, expiry: parseExpiry(body?.expiryDate) };
}

/**
 * Provisioning keys (dialect §1.3): `POST /api-key/v2/` as balena-sdk's
 * `application.generateProvisioningKey` sends it, and the legacy
 * `POST /api-key/application/{id}/provisioning`. The key is answered once, as a JSON string
 * like the user key endpoint.
 */
export async function provisioningKeyRoutes(app: FastifyInstance, { db, beforeCreate }: { db: Db; beforeCreate?: (applicationId: number) => Promise<void> }): Promise<void> {
  app.post<{ Body: V2Body }>('/api-key/v2/', { schema: { body: v2Schema }, config: { noStore: true, audit: { action: 'api_key.create', targets: [{ resource: 'application', from: 'body', field: 'actorTypeId' }] } } }, async (request, reply) => {
    const actor = requireUser(request);
    const { actorType, actorTypeId, roles } = request.body;
    // Device keys are created by their own endpoint (devices issue); named user keys by
    // /api-key/user/full.
    if (actorType !== 'application') throw new BadRequestError("Only keys of actorType 'application' can be created here");
    if (roles.length !== 1 || roles[0] !== 'provisioning-api-key') {
      throw new BadRequestError("An application key must have exactly the role 'provisioning-api-key'");
    }
    const key = await createProvisioningKey(db, actor, actorTypeId, detailsOf(request.body), beforeCreate);
    return reply.type('application/json').send(JSON.stringify(key));
  });

  app.post<{ Params: { id: number }; Body: KeyDetails | undefined }>(
    '/api-key/application/:id/provisioning',
    {
      config: { noStore: true, audit: { action: 'provisioning_key.create', targets: [{ resource: 'application', from: 'params', field: 'id' }] } },
      schema: {
        params: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } },
        body: { type: ['object', 'null'], properties: keyDetails },
      },
    },
    async (request, reply) => {
      const actor = requireUser(request);
      const key = await createProvisioningKey(db, actor, request.params.id, detailsOf(request.body ?? undefined), beforeCreate);
      return reply.type('application/json').send(JSON.stringify(key));
    },
  );
}
