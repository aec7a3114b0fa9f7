import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Bus } from '../../infra/bus/bus.js';
import type { Db } from '../../infra/db/db.js';
import { ForbiddenError, UnauthorizedError } from '../../infra/errors.js';
import type { Actor } from '../../infra/http/actor.js';
import { parseExpiry } from '../api-keys/api-key.routes.js';
import { createDeviceKey, registerDevice, type RegisterInput } from './device-register.js';
import { HeartbeatBatch } from './heartbeat-batch.js';
import { etagOf, TargetStateCache } from './state-cache.js';
import { DEVICE_STATE_CHANGED, useStateBus, type DeviceStateChanged } from './state-changes.js';
import { applyStateReport } from './state-report.js';
import { buildTargetState } from './target-state.js';

const nullableString = { type: ['string', 'null'], maxLength: 255 } as const;
const registerSchema = {
  type: 'object',
  required: ['application', 'uuid', 'device_type'],
  properties: {
    user: { type: ['integer', 'null'] },
    application: { type: 'integer', minimum: 1 },
    uuid: { type: 'string', maxLength: 62 },
    device_type: { type: 'string', maxLength: 255 },
    api_key: nullableString,
    supervisor_version: nullableString,
    os_version: nullableString,
    os_variant: nullableString,
    mac_address: { type: ['string', 'null'], maxLength: 10_000 },
  },
} as const;

function requireDevice(request: FastifyRequest): Actor & { deviceId: number } {
  const actor = request.actor;
  if (!actor || actor.kind !== 'device' || actor.deviceId === undefined) throw new UnauthorizedError('A device API key is required');
  return actor as Actor & { deviceId: number };
}

/**
 * The device side of the API (dialect §4): registration, the device key exchange, the v3
 * target state (cached per process, ETag/304, dropped on `device-state:changed`) whose
 * polls are the API heartbeat, and the v3 state report.
 */
export async function deviceApiRoutes(app: FastifyInstance, { db, bus }: { db: Db; bus: Bus }): Promise<void> {
  const cache = new TargetStateCache();
  const heartbeats = new HeartbeatBatch(db, 1_000, (err) => app.log.error({ err }, 'heartbeat flush failed'));
  heartbeats.start();
  const unsubscribe = await bus.subscribe(DEVICE_STATE_CHANGED, (message) => cache.drop((message ?? {}) as DeviceStateChanged));
  const unuse = useStateBus(bus);
  app.addHook('onClose', async () => {
    unuse();
    await unsubscribe();
    await heartbeats.stop();
  });

  app.post<{ Body: RegisterInput }>('/device/register', { schema: { body: registerSchema } }, async (request, reply) => {
    const result = await registerDevice(db, request.actor, request.body);
    return reply.code(201).send(result);
  });

  app.post<{ Params: { id: number }; Body: { apiKey?: string | null; name?: string | null; description?: string | null; expiryDate?: string | null } | null }>(
    '/api-key/device/:id/device-key',
    {
      schema: {
        params: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } },
        body: {
          type: ['object', 'null'],
          properties: {
            apiKey: nullableString,
            name: nullableString,
            description: { type: ['string', 'null'], maxLength: 10_000 },
            expiryDate: { type: ['string', 'null'] },
          },
        },
      },
    },
    async (request, reply) => {
      const b = request.body ?? {};
      const key = await createDeviceKey(db, request.actor, request.params.id, {
        apiKey: b.apiKey,
        name: b.name?.trim() || null,
        description: b.description ?? null,
        expiry: parseExpiry(b.expiryDate),
      });
      return reply.type('application/json').send(JSON.stringify(key));
    },
  );

  app.get<{ Params: { uuid: string } }>('/device/v3/:uuid/state', async (request, reply) => {
    const device = requireDevice(request);
    let entry = cache.get(device.deviceId);
    if (!entry) {
      const generation = cache.generation;
      const built = await buildTargetState(db, device.deviceId);
      if (!built) throw new UnauthorizedError('A device API key is required');
      const text = JSON.stringify(built.body);
      entry = { uuid: built.device.uuid, applicationId: built.device.applicationId, etag: etagOf(text), text };
      cache.set(device.deviceId, entry, generation);
    }
    if (entry.uuid !== request.params.uuid) throw new ForbiddenError('A device may only read its own state');
    heartbeats.record(device.deviceId);
    reply.header('etag', entry.etag).header('cache-control', 'no-cache');
    const match = request.headers['if-none-match'];
    if (match && match.split(',').some((t) => t.trim() === entry.etag)) return reply.code(304).send();
    return reply.type('application/json').send(entry.text);
  });

  app.patch('/device/v3/state', async (request, reply) => {
    const device = requireDevice(request);
    await applyStateReport(db, device.deviceId, request.body);
    return reply.code(200).send();
  });
}
