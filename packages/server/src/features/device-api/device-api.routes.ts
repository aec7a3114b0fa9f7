import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { billingEnabled, checkDeviceAllowance } from '../billing/index.js';
import type { Db } from '../../infra/db/db.js';
import { ForbiddenError, UnauthorizedError } from '../../infra/errors.js';
import type { Actor } from '../../infra/http/actor.js';
import { etagMatches } from '../../infra/http/compression.js';
import { parseExpiry } from '../../infra/auth/api-keys.js';
import { createDeviceKey, registerDevice, type RegisterInput } from './device-register.js';
import { isDeletedDeviceUuid } from './device-api.repository.js';
import { HeartbeatBatch } from './heartbeat-batch.js';
import { etagOf, FleetPartCache, TargetStateCache, type CachedState } from './state-cache.js';
import { DEVICE_STATE_CHANGED, type DeviceStateChanged, type StateChanges } from './state-changes.js';
import { StateReportBatch } from './state-report-batch.js';
import { buildFleetPart, buildSystemApp, loadTargetParts, v2Body, v3Body, type FleetPart, type SharedParts, type SystemApp } from './target-state.js';
import { applyV2StateReport, v2StateReportSchema } from './state-report-v2.js';
import { stateReportSchema } from './state-report.js';
import { fleetTargetState, readableDeviceId } from './state-read.js';
import { DEVICE_UUID } from '../../infra/http/schemas.js';
import { agentBuildTarget } from '../agent-releases/index.js';
import { assertNotFrozen } from '../billing/index.js';

const uuidParams = { type: 'object', required: ['uuid'], properties: { uuid: DEVICE_UUID } } as const;

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
 * and legacy v2 target state (cached per process, ETag/304, dropped on
 * `device-state:changed`) whose polls are the API heartbeat, and the v3 (grouped commits)
 * and v2 state reports.
 */
export async function deviceApiRoutes(app: FastifyInstance, { db, stateChanges }: { db: Db; stateChanges: StateChanges }): Promise<void> {
  const bus = app.context.bus;
  // One cache per body shape; both dropped together.
  const caches = { v3: new TargetStateCache(), v2: new TargetStateCache() };
  const fleetParts = new FleetPartCache<FleetPart | undefined>();
  const systemApps = new FleetPartCache<SystemApp | undefined>();
  const shared: SharedParts = {
    fleetPart: (appId, target) => fleetParts.get(appId, target, () => buildFleetPart(db, appId, target)),
    systemApp: (appId, releaseId, host) => systemApps.get(appId, host ? -releaseId : releaseId, () => buildSystemApp(db, appId, releaseId, host, (id) => agentBuildTarget(app, db, id))),
    holdFrozen: billingEnabled(app),
  };
  const reports = new StateReportBatch(db);
  const heartbeats = new HeartbeatBatch(db, 1_000, (err) => app.log.error({ err }, 'heartbeat flush failed'));
  heartbeats.start();
  const drop = (change: DeviceStateChanged) => {
    caches.v3.drop(change);
    caches.v2.drop(change);
    fleetParts.drop(change);
    systemApps.drop(change);
  };
  const unsubscribe = await bus.subscribe(DEVICE_STATE_CHANGED, (message) => drop((message ?? {}) as DeviceStateChanged));
  const unuse = stateChanges.onLocal(drop);
  // Changes announced while the bus was down are lost: every cached state is built again.
  const offGap = bus.onGap(() => drop({}));
  app.addHook('onClose', async () => {
    offGap();
    unuse();
    await unsubscribe();
    await heartbeats.stop();
  });

  app.post<{ Body: RegisterInput }>('/device/register', { schema: { body: registerSchema }, config: { audit: { action: 'device.register', targets: [{ resource: 'device', from: 'body', field: 'uuid', column: 'uuid' }] } } }, async (request, reply) => {
    // A frozen organization's fleets take no new devices (issue 18); the key is checked first.
    if (request.actor?.kind === 'application' && request.actor.applicationId === request.body.application) {
      await assertNotFrozen(app, db, { applications: [request.body.application] });
    }
    const result = await registerDevice(db, request.actor, request.body, billingEnabled(app) ? (tx, fleet) => checkDeviceAllowance(tx, fleet) : undefined);
    return reply.code(201).send(result);
  });

  app.post<{ Params: { id: number }; Body: { apiKey?: string | null; name?: string | null; description?: string | null; expiryDate?: string | null } | null }>(
    '/api-key/device/:id/device-key',
    {
      config: { noStore: true, audit: { action: 'device_key.create', targets: [{ resource: 'device', from: 'params', field: 'id' }] } },
      schema: {
        params: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } },
        body: {
          type: ['object', 'null'],
          properties: {
            apiKey: nullableString,
            name: nullableString,
            description: { type: ['string', 'null'], maxLength: 10_000 },
            expiryDate: { type: ['string', 'null'], maxLength: 64 },
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
      }, (id) => assertNotFrozen(app, db, { devices: [id] }));
      return reply.type('application/json').send(JSON.stringify(key));
    },
  );

  /** The device's cached state in the `version` shape, built (and cached) when missing. */
  const buildEntry = async (version: 'v2' | 'v3', deviceId: number): Promise<CachedState> => {
    const cache = caches[version];
    const generation = cache.generation;
    const parts = await loadTargetParts(db, deviceId, shared);
    if (!parts) throw new UnauthorizedError('A device API key is required');
    const text = JSON.stringify(version === 'v3' ? v3Body(parts) : v2Body(parts));
    const entry = { uuid: parts.device.uuid, applicationId: parts.device.app_id, etag: etagOf(text), text };
    cache.set(deviceId, entry, generation);
    return entry;
  };
  /** `heartbeat`: the device's own poll (dialect §4.4); a user reading the state is none. */
  const answer = (request: FastifyRequest<{ Params: { uuid: string } }>, reply: FastifyReply, deviceId: number, entry: CachedState, heartbeat = true): FastifyReply => {
    if (entry.uuid !== request.params.uuid) throw new ForbiddenError('A device may only read its own state');
    if (heartbeat) heartbeats.record(deviceId);
    reply.header('etag', entry.etag).header('cache-control', 'no-cache');
    // Weak comparison: a compressed answer carried W/"…" (infra/http/compression.ts).
    if (etagMatches(request.headers['if-none-match'], entry.etag)) return reply.code(304).send();
    return reply.type('application/json').send(entry.text);
  };

  /**
   * Dialect §4.2: a deleted device still polling gets 304 (keep running what you have). Its
   * keys went with it, so the poll is refused; the uuid's tombstone (migration 0019) tells
   * a deleted device from a wrong key, which stays a 401.
   */
  const deletedDevicePoll = async (request: FastifyRequest<{ Params: { uuid: string } }>, reply: FastifyReply) => {
    const refused = request.authError ?? new UnauthorizedError('A device API key is required');
    if (!request.authError) throw refused;
    if (!(await isDeletedDeviceUuid(db, request.params.uuid))) throw refused;
    return reply.code(304).header('cache-control', 'no-cache').send();
  };

  /**
   * A user (session or API key) reading a device's target state, as balena-sdk's
   * `device.getSupervisorTargetState` does: allowed when the data API lets them read the
   * device (observers included), the same body and ETag as the device's own poll.
   */
  const userStateRead = async (version: 'v2' | 'v3', request: FastifyRequest<{ Params: { uuid: string } }>, reply: FastifyReply) => {
    const deviceId = await readableDeviceId(db, request.actor, request.params.uuid);
    const entry = caches[version].get(deviceId) ?? (await buildEntry(version, deviceId));
    return answer(request, reply, deviceId, entry, false);
  };

  // Not async: an unchanged poll (cached key, cached state) is answered without a promise
  // and without reading the database (its heartbeat is written in the next batch).
  for (const version of ['v3', 'v2'] as const) {
    app.get<{ Params: { uuid: string } }>(`/device/${version}/:uuid/state`, { schema: { params: uuidParams }, config: { handlesAuthError: true } }, (request, reply) => {
      if (request.authError) return deletedDevicePoll(request, reply);
      if (request.actor?.kind === 'user') return userStateRead(version, request, reply);
      const { deviceId } = requireDevice(request);
      const entry = caches[version].get(deviceId);
      if (entry) {
        answer(request, reply, deviceId, entry);
        return undefined;
      }
      return buildEntry(version, deviceId).then((built) => answer(request, reply, deviceId, built));
    });
  }

  // balena-sdk's `device.getSupervisorTargetStateForApp` asks with a trailing slash.
  for (const path of ['/device/v3/fleet/:uuid/state', '/device/v3/fleet/:uuid/state/']) {
    app.get<{ Params: { uuid: string }; Querystring: { releaseUuid?: string } }>(
      path,
      { schema: { params: uuidParams, querystring: { type: 'object', properties: { releaseUuid: { type: 'string', maxLength: 255 } } } } },
      async (request, reply) => {
        const body = await fleetTargetState(db, request.actor, request.params.uuid, request.query.releaseUuid);
        return reply.header('cache-control', 'no-cache').send(body);
      },
    );
  }

  app.patch('/device/v3/state', { schema: { body: stateReportSchema } }, async (request, reply) => {
    const device = requireDevice(request);
    await reports.submit(device.deviceId, request.body);
    return reply.code(200).send();
  });

  app.patch<{ Params: { uuid: string } }>('/device/v2/:uuid/state', { schema: { params: uuidParams, body: v2StateReportSchema } }, async (request, reply) => {
    const device = requireDevice(request);
    await applyV2StateReport(db, device.deviceId, request.params.uuid, request.body);
    return reply.code(200).send();
  });
}
