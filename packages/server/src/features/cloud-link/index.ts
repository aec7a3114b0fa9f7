import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { MAX_FRAME_BYTES, cloudLinkRoutes } from './cloud-link.routes.js';

/** What other features use from the cloud link: the device actions relay over its protocol. */
export { actionChannel, type ActionReply, type ActionRequest, type DeviceAction } from './link-protocol.js';
export { sendToLinkHolder } from './to-link-holder.js';
/** The terminal relay over the link (features/terminal opens sessions through it). */
export {
  TERMINAL_WINDOW_CHARS,
  terminalInChannel,
  terminalOutChannel,
  type TerminalFromDevice,
  type TerminalOpenRequest,
  type TerminalToDevice,
} from './link-protocol.js';

/** The agents' WebSocket cloud link (liveness, relayed actions and terminals). */
export async function setup(app: FastifyInstance, _rules: Rules): Promise<void> {
  const { db, mailer, config } = app.context;
  // WebSockets for the whole app (the link here, the browser terminal in features/terminal):
  // one upgrade listener. No compression (per-link zlib contexts cost ~100 KB each); pings
  // are one shared sweep (CloudLinks). Each route bounds its own frames below this.
  await app.register(websocket, { options: { maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false } });
  await app.register(cloudLinkRoutes, { db, publicUrl: mailer.publicUrl, pingIntervalMs: config.cloudLinkPingIntervalMs });
}
