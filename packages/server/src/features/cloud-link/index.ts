import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { cloudLinkRoutes } from './cloud-link.routes.js';

/** What other features use from the cloud link: the device actions relay over its protocol. */
export { actionChannel, type ActionReply, type ActionRequest, type DeviceAction } from './link-protocol.js';

/** The agents' WebSocket cloud link (liveness, relayed actions and terminals). */
export async function setup(app: FastifyInstance, _rules: Rules): Promise<void> {
  const { db, mailer, config } = app.context;
  await app.register(cloudLinkRoutes, { db, publicUrl: mailer.publicUrl, pingIntervalMs: config.cloudLinkPingIntervalMs });
}
