import { DEVICE_UUID, EMPTY_BODY } from '../../infra/http/schemas.js';
import { DEVICE_RULE_MESSAGES, SUPERVISOR_ACTION_NEEDS, supervisorActionProblem } from '@flotilla/model';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError, HttpError } from '../../infra/errors.js';
import type { DeviceAction } from '../cloud-link/index.js';
import { ActionRelay } from './action-relay.js';
import { selectActionFacts } from './actions.repository.js';
import { onlineDevicesFor } from './device-action-access.js';
import { restartFleet } from './fleet-restart.js';
import { assertNotFrozen, frozenDeviceIds } from '../billing/index.js';

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

// Dialect §4.6: `{uuid|deviceId|appId, method?, data?}`.
const actionBody = {
  type: ['object', 'null'],
  properties: {
    deviceId: { type: 'integer' },
    uuid: { ...DEVICE_UUID },
    appId: { type: 'integer' },
    method: { type: 'string', maxLength: 10 },
    data: { type: 'object' },
  },
} as const;

/** A supervisor-API path the proxy serves, the device action it becomes, and its HTTP method on the device. */
interface SupervisorRoute {
  path: string;
  action: DeviceAction;
  method: 'GET' | 'POST';
}

/**
 * The supervisor API balena-sdk and the dashboard call through `/supervisor` (dialect §4.6,
 * balena-sdk `device.supervisor-api.partial`): GET `/ping` and `/v1/device` only read, the
 * rest act. `/v2/applications/{appId}/…` carries the fleet in the path.
 */
const SUPERVISOR_ROUTES: readonly SupervisorRoute[] = [
  { path: '/ping', action: 'ping', method: 'GET' },
  { path: '/v1/device', action: 'device', method: 'GET' },
  ...(['reboot', 'shutdown', 'restart', 'purge', 'blink', 'update'] as const).map((action) => ({ path: `/v1/${action}`, action, method: 'POST' as const })),
  ...(['restart-service', 'start-service', 'stop-service', 'restart', 'purge'] as const).map((action) => ({
    path: `/v2/applications/:appId/${action}`,
    action,
    method: 'POST' as const,
  })),
];

/** The methods balena's proxy relays; anything else is its 400. */
const RELAYED_METHODS = new Set(['PUT', 'PATCH', 'POST', 'HEAD', 'DELETE', 'GET']);

/** The method a request asks the device for: the body's (balena's default POST), which must be the route's. */
function methodOf(body: ActionBody, route: SupervisorRoute): void {
  const method = (body.method ?? 'POST').toUpperCase();
  if (!RELAYED_METHODS.has(method)) throw new BadRequestError(`Invalid method '${body.method}'`);
  if (method !== route.method) throw new HttpError(405, `${method} ${route.path} is not a supervisor API call`);
}

/**
 * Spec 2 §4: an action's needs (model device/actions.ts), checked on every device it would
 * reach: identify needs a type with an LED; purge, reboot and shutdown a fully provisioned
 * device. The first unmet need is the 400's message.
 */
async function checkActionNeeds(db: Db, action: DeviceAction, deviceIds: number[]): Promise<void> {
  if (SUPERVISOR_ACTION_NEEDS[action] === undefined) return;
  for (const device of await selectActionFacts(db, deviceIds)) {
    const problem = supervisorActionProblem(action, device);
    if (problem !== undefined) throw new BadRequestError(DEVICE_RULE_MESSAGES[problem]);
  }
}

function sendDeviceAnswer(reply: FastifyReply, answer: { status: number; body: unknown }): FastifyReply {
  reply.code(answer.status);
  // The device's body goes back as it came: a string as text (the supervisor answers "OK"),
  // anything else as JSON — a 423 keeps its body so the dashboard can offer to force.
  if (typeof answer.body === 'string') return reply.type('text/plain; charset=utf-8').send(answer.body);
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(answer.body ?? null));
}

/** One device's answer, or the relay's error (timeout, bus) as that device's status. */
async function askDevice(relay: ActionRelay, deviceId: number, action: DeviceAction, params: Record<string, unknown>): Promise<{ status: number; body: unknown }> {
  try {
    return await relay.request(deviceId, action, params);
  } catch (err) {
    return { status: err instanceof HttpError ? err.statusCode : 502, body: (err as Error).message };
  }
}

/**
 * `POST /supervisor/{path}` (balena's device proxy, dialect §4.6) and `/application/{id}/
 * restart`: the body names devices by any of `appId`, `deviceId`, `uuid`; each online one the
 * caller may reach gets the action over its cloud link, from whichever process holds it (see
 * features/cloud-link). One device: its status and body; several: 207 with
 * `[{statusCode, body}]`; none: 404 'No online device(s) found'.
 */
/** The devices and fleets a supervisor action names (the audit log, features/staff-audit). */
const SUPERVISOR_AUDIT_TARGETS = [
  { resource: 'device', from: 'body', field: 'uuid', column: 'uuid' },
  { resource: 'device', from: 'body', field: 'deviceId' },
  { resource: 'application', from: 'body', field: 'appId' },
  { resource: 'application', from: 'params', field: 'appId' },
] as const;

export const actionRoutes: FastifyPluginAsync<ActionRoutesOptions> = async (app, opts) => {
  const relay = new ActionRelay(app.bus, opts.timeoutMs);
  app.addHook('onClose', async () => relay.close());

  const appIdParams = { type: 'object', properties: { appId: { type: 'string', maxLength: 10, pattern: '^[0-9]{1,10}$' } } } as const;
  for (const route of SUPERVISOR_ROUTES) {
    const inPath = route.path.includes(':appId');
    app.post<{ Params: { appId?: string }; Body: ActionBody | null | undefined }>(
      `/supervisor${route.path}`,
      {
        schema: { body: actionBody, ...(inPath ? { params: appIdParams } : {}) },
        config: { audit: { action: `supervisor${route.path}`, targets: SUPERVISOR_AUDIT_TARGETS } },
      },
      async (request, reply) => {
        const body = request.body ?? {};
        methodOf(body, route);
        const devices = await onlineDevicesFor(opts.db, request.actor, { appId: body.appId, deviceId: body.deviceId, uuid: body.uuid }, route.method !== 'GET');
        // A frozen organization's devices take no actions (issue 18); reading them is allowed.
        if (route.method !== 'GET') await assertNotFrozen(app, opts.db, { devices: devices.map((d) => d.id) });
        await checkActionNeeds(opts.db, route.action, devices.map((d) => d.id));
        const params: Record<string, unknown> = { ...(body.data ?? {}) };
        if (inPath) params.appId = Number(request.params.appId);
        else if (body.appId !== undefined && params.appId === undefined) params.appId = body.appId;
        if (devices.length === 1) return sendDeviceAnswer(reply, await relay.request(devices[0]!.id, route.action, params));
        const answers = await Promise.all(devices.map((d) => askDevice(relay, d.id, route.action, params)));
        return reply.code(207).send(answers.map((a) => ({ statusCode: a.status, body: a.body })));
      },
    );
  }

  app.post<{ Params: { id: string } }>(
    '/application/:id/restart',
    {
      schema: { params: { type: 'object', properties: { id: { type: 'string', maxLength: 10, pattern: '^[0-9]{1,10}$' } } }, body: EMPTY_BODY },
      config: { audit: { action: 'application.restart', targets: [{ resource: 'application', from: 'params', field: 'id' }] } },
    },
    async (request, reply) => {
      // A frozen organization's fleet restarts nothing (issue 18), checked once the caller may see the fleet.
      const answer = await restartFleet(
        opts.db,
        relay,
        request.actor,
        Number(request.params.id),
        (id) => assertNotFrozen(app, opts.db, { applications: [id] }),
        (ids) => frozenDeviceIds(app, opts.db, ids),
      );
      return sendDeviceAnswer(reply, answer);
    },
  );
};
