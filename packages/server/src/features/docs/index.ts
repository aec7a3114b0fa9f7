import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { DOCS_GUIDE_DIR } from '../../paths.js';
import { docsRoutes } from './docs.routes.js';

/** Flotilla's own guides at /docs/. */
export async function setup(app: FastifyInstance, _rules: Rules): Promise<void> {
  await app.register(docsRoutes, { dir: DOCS_GUIDE_DIR });
}
