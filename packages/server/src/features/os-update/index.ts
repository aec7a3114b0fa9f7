import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { ActionRelay } from '../actions/index.js';
import { osUpdateRoutes } from './os-update.routes.js';
import { OsUpdates } from './os-update.service.js';

/** Host OS updates through the actions service (issue 17: balena-sdk `device.startOsUpdate`). */
export async function setup(app: FastifyInstance, _rules: Rules): Promise<void> {
  const relay = new ActionRelay(app.bus, app.context.config.actionTimeoutMs);
  app.addHook('onClose', async () => relay.close());
  const updates = new OsUpdates({ db: app.context.db, app: app.context, relay, log: app.log });
  await app.register(osUpdateRoutes, { updates });
}
