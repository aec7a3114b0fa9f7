import { ACTOR_ALIAS, fleetRoleAtLeast } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, UnauthorizedError } from '../../infra/errors.js';
import type { Actor } from '../../infra/http/actor.js';
import { generateApiKey, hashApiKey } from '../../infra/auth/api-keys.js';
import { asRoot, odataRead, type HookBody } from '../../infra/odata/index.js';
import { checkDeviceArchitecture } from '../devices/device-architecture.js';
import { prepareDevice } from '../devices/device-identity.js';

export interface RegisterInput {
  application: number;
  uuid: string;
  device_type: string;
  api_key?: string | null;
  supervisor_version?: string | null;
  os_version?: string | null;
  os_variant?: string | null;
  mac_address?: string | null;
}

/** Stores `key` (hashed) for `actor`; a key already held by this actor is fine, another's a 409. */
async function storeKey(db: Db, actor: number, key: string, details: { name?: string | null; description?: string | null; expiry?: Date | null } = {}): Promise<void> {
  const { rows } = await db.query<{ actor: number }>(
    `INSERT INTO api_key (key, name, description, expiry_date, is_of__actor) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (key) DO UPDATE SET key = EXCLUDED.key RETURNING is_of__actor AS actor`,
    [hashApiKey(key), details.name ?? null, details.description ?? null, details.expiry ?? null, actor],
  );
  if (rows[0]?.actor !== actor) throw new ConflictError('This API key is already in use');
}

/**
 * `POST /device/register` (dialect §4.1): a fleet's provisioning key registers a device of
 * that fleet, with its own actor and device API key (the one sent, or a new one).
 */
export async function registerDevice(db: Db, caller: Actor | null, input: RegisterInput): Promise<{ id: number; uuid: string; api_key: string }> {
  if (!caller || caller.kind !== 'application' || caller.applicationId !== input.application) {
    throw new UnauthorizedError('A provisioning key of this fleet is required to register a device');
  }
  if (input.api_key !== undefined && input.api_key !== null && (typeof input.api_key !== 'string' || input.api_key.length < 16)) {
    throw new BadRequestError('api_key must be a string of at least 16 characters');
  }
  return db.tx(async (tx) => {
    const type = (
      await tx.query<{ id: number }>(
        `SELECT dt.id FROM device_type dt
          WHERE dt.slug = $1 OR EXISTS (SELECT 1 FROM device_type_alias x WHERE x.device_type = dt.id AND x.is_referenced_by__alias = $1)
          ORDER BY (dt.slug = $1) DESC LIMIT 1`,
        [input.device_type],
      )
    ).rows[0];
    if (!type) throw new BadRequestError(`Unknown device type '${input.device_type}'`);
    const existing = await tx.query('SELECT 1 FROM device WHERE uuid = $1', [input.uuid]);
    if (existing.rowCount) throw new ConflictError('"uuid" must be unique.');
    const body: HookBody<'device', 'POST'> = { uuid: input.uuid };
    await prepareDevice(tx, body);
    const { rows } = await tx.query<{ id: number; uuid: string }>(
      `INSERT INTO device (actor, uuid, device_name, belongs_to__application, is_of__device_type, supervisor_version, os_version, os_variant, mac_address)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (uuid) DO NOTHING RETURNING id, uuid`,
      [body.actor, body.uuid, body.device_name, input.application, type.id, input.supervisor_version ?? null, input.os_version ?? null, input.os_variant ?? null, input.mac_address ?? null],
    );
    const device = rows[0];
    if (!device) throw new ConflictError('"uuid" must be unique.');
    await checkDeviceArchitecture(tx, 'POST', { is_of__device_type: type.id }, [device.id]);
    const apiKey = input.api_key ?? generateApiKey();
    await storeKey(tx, body.actor as number, apiKey);
    return { id: device.id, uuid: device.uuid, api_key: apiKey };
  });
}

export interface DeviceKeyInput {
  apiKey?: string | null;
  name?: string | null;
  description?: string | null;
  expiry?: Date | null;
}

/**
 * `POST /api-key/device/{id}/device-key` (dialect §1.3, §4.1 key exchange): a device key for
 * device `id`, the one sent or a new one. Allowed with the provisioning key of the device's
 * fleet, the device's own key, or a user who operates the device's fleet.
 */
export async function createDeviceKey(db: Db, caller: Actor | null, deviceId: number, input: DeviceKeyInput): Promise<string> {
  if (!caller) throw new UnauthorizedError('You have to log in');
  const device = (await db.query<{ id: number; actor: number; app: number }>('SELECT id, actor, belongs_to__application AS app FROM device WHERE id = $1', [deviceId]))
    .rows[0];
  if (caller.kind === 'application') {
    if (!device || device.app !== caller.applicationId) throw new NotFoundError('Device not found');
  } else if (caller.kind === 'device') {
    if (!device || device.id !== caller.deviceId) throw new NotFoundError('Device not found');
  } else {
    const ctx = { actorId: caller.actorId, permissions: caller.permissions };
    const visible = await odataRead(db, ctx, `/device(${deviceId})?$select=id`);
    if (!device || visible.length === 0) throw new NotFoundError('Device not found');
    const condition = fleetRoleAtLeast('operator').split(ACTOR_ALIAS).join(String(caller.actorId));
    const operated = await odataRead(db, asRoot(ctx), `/application(${device.app})?$select=id&$filter=${encodeURIComponent(condition)}`);
    if (operated.length === 0) throw new ForbiddenError("You don't have the required permission for this action");
  }
  if (input.apiKey !== undefined && input.apiKey !== null && input.apiKey.length < 16) {
    throw new BadRequestError('apiKey must be a string of at least 16 characters');
  }
  const key = input.apiKey ?? generateApiKey();
  await storeKey(db, device.actor, key, { name: input.name, description: input.description, expiry: input.expiry });
  return key;
}
