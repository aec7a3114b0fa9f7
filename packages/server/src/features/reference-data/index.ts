import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { deviceTypesV1Routes } from './device-types-v1.routes.js';

export { catalogueCommit, seedReferenceData } from './seed.js';

/** Reference data: balena's legacy device-type manifests. */
export async function setup(app: FastifyInstance, _rules: Rules): Promise<void> {
  await app.register(deviceTypesV1Routes, { db: app.context.db });
}
