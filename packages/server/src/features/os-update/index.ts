import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { ActionRelay } from '../actions/index.js';
import { assertNotFrozen } from '../billing/index.js';
import { osUpdateRoutes } from './os-update.routes.js';
import { OsUpdates } from './os-update.service.js';

/** Host OS updates through the actions service (issue 17: balena-sdk `device.startOsUpdate`). */
export async function setup(app: FastifyInstance, _rules: Rules): Promise<void> {
  const relay = new ActionRelay(app.bus, app.context.config.actionTimeoutMs);
  app.addHook('onClose', async () => relay.close());
  // A frozen organization's devices start no OS update (issue 18), checked once the caller may update the device.
  const beforeStart = (deviceId: number) => assertNotFrozen(app, app.context.db, { devices: [deviceId] });
  const updates = new OsUpdates({ db: app.context.db, app: app.context, relay, log: app.log, beforeStart });
  await app.register(osUpdateRoutes, { updates });
}
