import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { actionRoutes } from './actions.routes.js';

/** The relay of device actions over the cloud link (the actions service sends its runs through it). */
export { ActionRelay } from './action-relay.js';

/** Device actions relayed over the cloud link. */
export async function setup(app: FastifyInstance, _rules: Rules): Promise<void> {
  await app.register(actionRoutes, { db: app.context.db, timeoutMs: app.context.config.actionTimeoutMs });
}
