import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Db } from '../../infra/db/db.js';
import { ForbiddenError, UnauthorizedError } from '../../infra/errors.js';
import { DEVICE_STATE_CHANGED, type DeviceStateChanged } from '../device-api/index.js';
import { CloudLinks } from './cloud-links.js';

export interface CloudLinkOptions {
  db: Db;
  /** FLOTILLA_PUBLIC_URL: a browser's Origin header must match it. */
  publicUrl: string;
  pingIntervalMs?: number;
}

/** Largest frame a device may send (a result body); actions and results are small. */
export const MAX_FRAME_BYTES = 1024 * 1024;

/**
 * The device's only authentication is its device key; a browser (Origin header present)
 * could be tricked into opening a link with a key it holds only from another site's page,
 * so a cross-site Origin is refused (cross-site WebSocket hijacking).
 */
function checkLinkCaller(request: FastifyRequest, publicOrigin: string): number {
  const actor = request.actor;
  if (!actor) throw new UnauthorizedError();
  if (actor.kind !== 'device' || actor.deviceId === undefined) throw new ForbiddenError('Only a device key may open a cloud link');
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== publicOrigin) throw new ForbiddenError('Origin not allowed');
  return actor.deviceId;
}

/** `GET /device/v1/link`: the cloud link WebSocket (issue-5 contract, "Cloud link protocol"). */
export const cloudLinkRoutes: FastifyPluginAsync<CloudLinkOptions> = async (app, opts) => {
  const links = new CloudLinks(opts.db, app.bus, app.log, opts.pingIntervalMs);
  const publicOrigin = new URL(opts.publicUrl).origin;
  // Devices hear of a new target at once (not at their next poll); every process listens,
  // each notifies the links it holds.
  const stopWatching = await app.bus.subscribe(DEVICE_STATE_CHANGED, (m) => {
    links.notifyTargetChanged(m as DeviceStateChanged).catch((err: unknown) => app.log.error({ err }, 'cloud link: could not notify a target change'));
  });
  app.addHook('onClose', async () => {
    await stopWatching();
    await links.close();
  });
  // A refused upgrade (401/403 from the authentication hook, which runs before the
  // websocket plugin's own hooks) still holds the raw socket: end it once answered.
  app.addHook('onResponse', async (request) => {
    if (request.headers.upgrade?.toLowerCase() === 'websocket') request.raw.socket?.destroy();
  });

  app.get(
    '/device/v1/link',
    {
      websocket: true,
      preValidation: async (request) => {
        checkLinkCaller(request, publicOrigin);
      },
    },
    (socket, request) => {
      links.open(checkLinkCaller(request, publicOrigin), socket);
    },
  );
};
