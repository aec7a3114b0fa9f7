import { ACTIONS_SERVICE_PATH, OS_UPDATE_ACTION } from '@flotilla/model';
import type { FastifyPluginAsync } from 'fastify';
import { DEVICE_UUID } from '../../infra/http/schemas.js';
import type { OsUpdates } from './os-update.service.js';

const params = {
  type: 'object',
  properties: { uuid: DEVICE_UUID },
  required: ['uuid'],
} as const;

/** balena-sdk's device actions body: `{parameters: {target_version}}`. */
const body = {
  type: ['object', 'null'],
  properties: { parameters: { type: 'object', properties: { target_version: { type: 'string', minLength: 1, maxLength: 100 } } } },
} as const;

interface Params {
  uuid: string;
}

/** balena-sdk's device actions API versions (v2 when detached). Two static paths: `/v1/:uuid/:actionId` (diagnostics) would take a `:version` parameter's v1. */
const API_VERSIONS = ['v1', 'v2'] as const;

/**
 * `POST {ACTIONS_SERVICE_PATH}/{v1|v2}/{uuid}/resinhup` (balena-sdk `device.startOsUpdate`:
 * v2 when detached, its default). 200 `{status: 'triggered', …}` or 400 'Cannot start the
 * update process: …'. balena-sdk sends it to `https://actions.<deviceUrlsBase>`; clients of a
 * Flotilla server route that to this path (docs/host-os-and-agent-releases.md).
 */
export const osUpdateRoutes: FastifyPluginAsync<{ updates: OsUpdates }> = async (app, { updates }) => {
  for (const version of API_VERSIONS) {
    app.post<{ Params: Params; Body: { parameters?: { target_version?: string } } | null | undefined }>(
      `${ACTIONS_SERVICE_PATH}/${version}/:uuid/${OS_UPDATE_ACTION}`,
      { schema: { params, body }, config: { audit: { action: 'device.os_update', targets: [{ resource: 'device', from: 'params', field: 'uuid', column: 'uuid' }] } } },
      async (request, reply) => {
        const result = await updates.start(request.actor, request.params.uuid, request.body?.parameters?.target_version);
        return reply.header('cache-control', 'no-store').send(result);
      },
    );
  }
};
