import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { adminRoutes } from './login-as.routes.js';

/** Platform staff: logging in as a user. */
export async function setup(app: FastifyInstance, _rules: Rules): Promise<void> {
  await app.register(adminRoutes, { db: app.context.db, jwtSecret: app.context.config.jwtSecret });
}
