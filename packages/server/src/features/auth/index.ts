import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { authRoutes } from './auth.routes.js';
import { sessionRoutes } from './session.routes.js';

/** Sign-up, login, tokens and sessions (re-verification, logging out other sessions). */
export async function setup(app: FastifyInstance, _rules: Rules): Promise<void> {
  const { db, config } = app.context;
  await app.register(authRoutes, { db, jwtSecret: config.jwtSecret, account: config.accounts });
  await app.register(sessionRoutes, { db, jwtSecret: config.jwtSecret });
}
