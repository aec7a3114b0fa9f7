import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { oauthRoutes } from './oauth.routes.js';

/** OAuth authorization codes for the CLI and other clients. */
export async function setup(app: FastifyInstance, _rules: Rules): Promise<void> {
  await app.register(oauthRoutes, { db: app.context.db, jwtSecret: app.context.config.jwtSecret });
}
