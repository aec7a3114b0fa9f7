import { isArchitectureCompatibleWith } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import { selectArchitectureMismatches } from './device.repository.js';
import type { HookBody } from '../../infra/odata/index.js';

/**
 * Rule: a device's type runs its fleet's CPU architecture, as balena defines it (model
 * `isArchitectureCompatibleWith`: the same architecture, or aarch64 devices in armv7hf and
 * rpi fleets, armv7hf devices in rpi fleets), on create, on a type change and on a move to
 * another fleet (spec 2 §5 Devices: only fleets with a compatible architecture are offered).
 * Checked on the written rows, after the permission checks, so the answer says nothing about
 * fleets the caller cannot write. The messages are balena-sdk's own for the same refusal.
 */
export async function checkDeviceArchitecture(
  db: Db,
  method: 'POST' | 'PATCH',
  body: HookBody<'device', 'POST' | 'PATCH'>,
  ids: readonly number[],
): Promise<void> {
  if (ids.length === 0) return;
  if (!('is_of__device_type' in body) && !('belongs_to__application' in body)) return;
  const rows = await selectArchitectureMismatches(db, ids);
  const wrong = rows.find((r) => !isArchitectureCompatibleWith(r.device_arch, r.fleet_arch));
  if (!wrong) return;
  if (method === 'PATCH' && 'belongs_to__application' in body) throw new BadRequestError(`Incompatible application: ${wrong.fleet}`);
  throw new BadRequestError(`Incompatible device type: ${wrong.device_type}`);
}
