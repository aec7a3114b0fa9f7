import { DEVICE_UUID, EMPTY_BODY } from '../../infra/http/schemas.js';
import { DEVICE_RULE_MESSAGES } from '@flotilla/model';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { DeviceAction } from '../cloud-link/link-protocol.js';
import { ActionRelay } from './action-relay.js';
import { deviceForAction, deviceRefOf } from './device-action-access.js';
import { restartFleet } from './fleet-restart.js';

export interface ActionRoutesOptions {
  db: Db;
  /** How long to wait for the device's answer (default 30 s, the contract's). */
  timeoutMs?: number;
}

interface ActionBody {
  deviceId?: number;
  uuid?: string;
  appId?: number;
  method?: string;
  data?: Record<string, unknown>;
}

// Dialect §2 "Actions": `{deviceId|uuid, appId?, method?, data?}`.
const actionBody = {
  type: 'object',
  properties: {
    deviceId: { type: 'integer' },
    uuid: { ...DEVICE_UUID },
    appId: { type: 'integer' },
    method: { type: 'string', maxLength: 10 },
    data: { type: 'object' },
  },
} as const;

const V1_ACTIONS = ['reboot', 'shutdown', 'restart', 'purge', 'blink', 'update'] as const satisfies readonly DeviceAction[];
const V2_SERVICE_ACTIONS = ['restart-service', 'start-service', 'stop-service'] as const satisfies readonly DeviceAction[];

/** Spec 2 §8: actions need an online device; "online" is a live cloud link (`is_online`). */
export const DEVICE_MUST_BE_ONLINE = 'device must be online';

/** Spec 2 §4: identify needs a device type whose contract says it has an LED. */
async function checkBlinkSupport(db: Db, deviceId: number): Promise<void> {
  const { rows } = await db.query<{ led: boolean | null }>(
    `SELECT (dt.contract->'data'->>'led')::boolean AS led FROM device d JOIN device_type dt ON dt.id = d.is_of__device_type WHERE d.id = $1`,
    [deviceId],
  );
  if (rows[0]?.led !== true) throw new BadRequestError(DEVICE_RULE_MESSAGES.no_blink_support);
}

function sendDeviceAnswer(reply: FastifyReply, answer: { status: number; body: unknown }): FastifyReply {
  reply.code(answer.status);
  // The device's body goes back as it came: a string as text (the supervisor answers "OK"),
  // anything else as JSON — a 423 keeps its body so the dashboard can offer to force.
  if (typeof answer.body === 'string') return reply.type('text/plain; charset=utf-8').send(answer.body);
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(answer.body ?? null));
}

/**
 * `POST /supervisor/v1/*`, `/supervisor/v2/applications/{appId}/*-service` and
 * `/application/{id}/restart`: device actions relayed over the cloud link, from whichever
 * process holds it (see features/cloud-link).
 */
export const actionRoutes: FastifyPluginAsync<ActionRoutesOptions> = async (app, opts) => {
  const relay = new ActionRelay(app.bus, opts.timeoutMs);
  app.addHook('onClose', async () => relay.close());

  for (const action of V1_ACTIONS) {
    app.post<{ Body: ActionBody | undefined }>(`/supervisor/v1/${action}`, { schema: { body: actionBody } }, async (request, reply) => {
      const body = request.body ?? {};
      const device = await deviceForAction(opts.db, request.actor, deviceRefOf(body));
      if (!device.is_online) throw new BadRequestError(DEVICE_MUST_BE_ONLINE);
      if (action === 'blink') await checkBlinkSupport(opts.db, device.id);
      const params: Record<string, unknown> = { ...(body.data ?? {}) };
      if (body.appId !== undefined && params.appId === undefined) params.appId = body.appId;
      return sendDeviceAnswer(reply, await relay.request(device.id, action, params));
    });
  }

  for (const action of V2_SERVICE_ACTIONS) {
    app.post<{ Params: { appId: string }; Body: ActionBody | undefined }>(
      `/supervisor/v2/applications/:appId/${action}`,
      { schema: { params: { type: 'object', properties: { appId: { type: 'string', maxLength: 10, pattern: '^[0-9]{1,10}$' } } }, body: actionBody } },
      async (request, reply) => {
        const body = request.body ?? {};
        const device = await deviceForAction(opts.db, request.actor, deviceRefOf(body));
        if (!device.is_online) throw new BadRequestError(DEVICE_MUST_BE_ONLINE);
        const params = { ...(body.data ?? {}), appId: Number(request.params.appId) };
        return sendDeviceAnswer(reply, await relay.request(device.id, action, params));
      },
    );
  }

  app.post<{ Params: { id: string } }>(
    '/application/:id/restart',
    { schema: { params: { type: 'object', properties: { id: { type: 'string', maxLength: 10, pattern: '^[0-9]{1,10}$' } } }, body: EMPTY_BODY } },
    async (request, reply) => {
      const answer = await restartFleet(opts.db, relay, request.actor, Number(request.params.id));
      return sendDeviceAnswer(reply, answer);
    },
  );
};
