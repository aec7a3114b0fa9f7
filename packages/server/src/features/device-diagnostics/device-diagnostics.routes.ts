import { ACTIONS_SERVICE_PATH, LONG_ACTIONS, type LongAction } from '@flotilla/model';
import type { FastifyPluginAsync } from 'fastify';
import { NotFoundError, UnauthorizedError } from '../../infra/errors.js';
import { DEVICE_UUID } from '../../infra/http/schemas.js';
import type { ActionRuns } from './action-runs.js';

const params = {
  type: 'object',
  properties: { uuid: DEVICE_UUID, actionId: { type: 'string', maxLength: 50 } },
  required: ['uuid', 'actionId'],
} as const;

/** `{params?: object}`; an absent or empty body starts the action with no parameters (spec 2 §7: diagnose with empty params). */
const startBody = {
  type: ['object', 'null'],
  properties: { params: { type: 'object' } },
  additionalProperties: false,
} as const;

/** Larger bodies are 413 before parsing; params within it but over ACTION_RUN_LIMITS.maxParamsBytes are 400. */
const BODY_LIMIT_BYTES = 64 * 1024;

interface Params {
  uuid: string;
  actionId: string;
}

function longAction(actionId: string): LongAction {
  if (!(LONG_ACTIONS as readonly string[]).includes(actionId)) throw new NotFoundError(`Unknown action '${actionId}' (known: ${LONG_ACTIONS.join(', ')})`);
  return actionId as LongAction;
}

/** `GET|POST {ACTIONS_SERVICE_PATH}/v1/{uuid}/{actionId}` (spec 2 §7 actions service). */
export const diagnosticsRoutes: FastifyPluginAsync<{ runs: ActionRuns }> = async (app, { runs }) => {
  app.addHook('onClose', async () => runs.close());

  app.get<{ Params: Params }>(`${ACTIONS_SERVICE_PATH}/v1/:uuid/:actionId`, { schema: { params } }, async (request, reply) => {
    if (!request.actor) throw new UnauthorizedError();
    const run = await runs.read(request.actor, request.params.uuid, longAction(request.params.actionId));
    return reply.header('cache-control', 'no-store').send(run);
  });

  app.post<{ Params: Params; Body: { params?: Record<string, unknown> } | null | undefined }>(
    `${ACTIONS_SERVICE_PATH}/v1/:uuid/:actionId`,
    { schema: { params, body: startBody }, bodyLimit: BODY_LIMIT_BYTES, config: { audit: { action: 'device.long_action', targets: [{ resource: 'device', from: 'params', field: 'uuid', column: 'uuid' }] } } },
    async (request, reply) => {
      if (!request.actor) throw new UnauthorizedError();
      const run = await runs.start(request.actor, request.params.uuid, longAction(request.params.actionId), request.body?.params ?? {});
      return reply.code(202).header('cache-control', 'no-store').send(run);
    },
  );
};
