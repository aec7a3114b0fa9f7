import type { FastifyInstance } from 'fastify';
import type { Db } from '../../infra/db/db.js';
import { DEVICE_UUID } from '../../infra/http/schemas.js';
import { billingEnabled } from '../billing/index.js';
import { effectiveVariables } from './effective-variables.js';

/** `GET /device/{uuid}/effective-variables` (docs/variables.md): see effective-variables.ts. */
export async function effectiveVariablesRoutes(app: FastifyInstance, { db }: { db: Db }): Promise<void> {
  app.get<{ Params: { uuid: string } }>(
    '/device/:uuid/effective-variables',
    { schema: { params: { type: 'object', properties: { uuid: DEVICE_UUID }, required: ['uuid'] } } },
    async (request, reply) => reply.header('cache-control', 'no-store').send(await effectiveVariables(db, request.actor, request.params.uuid, { holdFrozen: billingEnabled(app) })),
  );
}
