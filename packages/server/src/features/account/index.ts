import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { accountRoutes } from './account.routes.js';

/** The user's own account: password, e-mail, deletion. */
export async function setup(app: FastifyInstance, _rules: Rules): Promise<void> {
  await app.register(accountRoutes, { db: app.context.db, jwtSecret: app.context.config.jwtSecret });
}
