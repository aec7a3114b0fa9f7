import { randomBytes } from 'node:crypto';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import { freshDeviceName } from './device-name.js';
import { insertActor } from '../../infra/auth/actor.repository.js';
import type { HookBody } from '../../infra/odata/index.js';

/** Dialect §4.1: device uuids are 32 (or, from old clients, 62) lowercase hex characters. */
const UUID = /^(?:[0-9a-f]{32}|[0-9a-f]{62})$/;

/**
 * Rule: a new device gets its own actor (device API keys hang off it), a valid uuid
 * (generated when absent) and a name (a readable random one, unused in its fleet, when absent).
 */
export async function prepareDevice(db: Db, body: HookBody<'device', 'POST'>): Promise<void> {
  if (body.uuid === undefined || body.uuid === null) {
    body.uuid = randomBytes(16).toString('hex');
  } else if (typeof body.uuid !== 'string' || !UUID.test(body.uuid)) {
    throw new BadRequestError('uuid must be 32 or 62 lowercase hexadecimal characters');
  }
  if (body.device_name === undefined || body.device_name === null) body.device_name = await freshDeviceName(db, body.belongs_to__application);
  checkDeviceName(body);
  body.actor = await insertActor(db);
}

/** Rule: a device name, when given, is not blank. */
export function checkDeviceName(body: HookBody<'device', 'PATCH'>): void {
  if (!('device_name' in body)) return;
  if (typeof body.device_name !== 'string' || body.device_name.trim() === '') throw new BadRequestError('device_name cannot be empty');
}
