import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { deviceTypesV1Routes } from './device-types-v1.routes.js';
import { osReleasePublishRoutes } from './os-release-publish.routes.js';

export { catalogueCommit, seedReferenceData } from './seed.js';

/** Reference data: balena's legacy device-type manifests; publishing and withdrawing host OS releases (/admin). */
export async function setup(app: FastifyInstance, _rules: Rules): Promise<void> {
  await app.register(deviceTypesV1Routes, { db: app.context.db });
  await app.register(osReleasePublishRoutes, { db: app.context.db, clock: app.context.clock });
}
