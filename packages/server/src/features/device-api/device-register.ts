import { ACTOR_ALIAS, fleetRoleAtLeast } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, UnauthorizedError } from '../../infra/errors.js';
import type { Actor } from '../../infra/http/actor.js';
import { generateApiKey, hashApiKey } from '../../infra/auth/api-keys.js';
import { asRoot, type HookBody, odataRead } from '../../infra/odata/index.js';
import { checkDeviceArchitecture, prepareDevice } from '../devices/index.js';
import { deviceUuidExists, insertApiKey, insertRegisteredDevice, selectDeviceActorAndFleet, selectDeviceTypeIdBySlugOrAlias } from './device-api.repository.js';

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
  const holder = await insertApiKey(db, hashApiKey(key), actor, {
    name: details.name ?? null,
    description: details.description ?? null,
    expiry: details.expiry ?? null,
  });
  if (holder !== actor) throw new ConflictError('This API key is already in use');
}

/**
 * `POST /device/register` (dialect §4.1): a fleet's provisioning key registers a device of
 * that fleet, with its own actor and device API key (the one sent, or a new one).
 */
export async function registerDevice(
  db: Db,
  caller: Actor | null,
  input: RegisterInput,
  /** Rules of other features on a new device of the fleet (billing: the free device allowance). */
  beforeInsert?: (tx: Db, fleetId: number) => Promise<void>,
): Promise<{ id: number; uuid: string; api_key: string }> {
  if (!caller || caller.kind !== 'application' || caller.applicationId !== input.application) {
    throw new UnauthorizedError('A provisioning key of this fleet is required to register a device');
  }
  if (input.api_key !== undefined && input.api_key !== null && (typeof input.api_key !== 'string' || input.api_key.length < 16)) {
    throw new BadRequestError('api_key must be a string of at least 16 characters');
  }
  return db.tx(async (tx) => {
    const typeId = await selectDeviceTypeIdBySlugOrAlias(tx, input.device_type);
    if (typeId === undefined) throw new BadRequestError(`Unknown device type '${input.device_type}'`);
    if (await deviceUuidExists(tx, input.uuid)) throw new ConflictError('"uuid" must be unique.');
    await beforeInsert?.(tx, input.application);
    const body: HookBody<'device', 'POST'> = { uuid: input.uuid, belongs_to__application: input.application };
    await prepareDevice(tx, body);
    const device = await insertRegisteredDevice(tx, {
      actor: body.actor,
      uuid: body.uuid,
      device_name: body.device_name,
      application: input.application,
      deviceType: typeId,
      supervisor_version: input.supervisor_version ?? null,
      os_version: input.os_version ?? null,
      os_variant: input.os_variant ?? null,
      mac_address: input.mac_address ?? null,
    });
    if (!device) throw new ConflictError('"uuid" must be unique.');
    await checkDeviceArchitecture(tx, 'POST', { is_of__device_type: typeId }, [device.id]);
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
export async function createDeviceKey(
  db: Db,
  caller: Actor | null,
  deviceId: number,
  input: DeviceKeyInput,
  /**
   * Called with the device's id once a user or provisioning key may make its key (billing: a
   * frozen organization's devices get no new keys, 402). The device itself is not refused:
   * its own key exchange must not brick it.
   */
  beforeCreate?: (deviceId: number) => Promise<void>,
): Promise<string> {
  if (!caller) throw new UnauthorizedError('You have to log in');
  const device = await selectDeviceActorAndFleet(db, deviceId);
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
  if (caller.kind !== 'device') await beforeCreate?.(device.id);
  if (input.apiKey !== undefined && input.apiKey !== null && input.apiKey.length < 16) {
    throw new BadRequestError('apiKey must be a string of at least 16 characters');
  }
  const key = input.apiKey ?? generateApiKey();
  await storeKey(db, device.actor, key, { name: input.name, description: input.description, expiry: input.expiry });
  return key;
}
