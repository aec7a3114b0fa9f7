import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { cloudLinkRoutes } from './cloud-link.routes.js';

// The link's action messages, which the device actions (features/actions) send and await.
export { actionChannel, type ActionReply, type ActionRequest, type DeviceAction } from './link-protocol.js';

/** The agents' WebSocket cloud link (liveness, relayed actions and terminals). */
export async function setup(app: FastifyInstance, _rules: Rules): Promise<void> {
  const { db, mailer, config } = app.context;
  await app.register(cloudLinkRoutes, { db, publicUrl: mailer.publicUrl, pingIntervalMs: config.cloudLinkPingIntervalMs });
}
