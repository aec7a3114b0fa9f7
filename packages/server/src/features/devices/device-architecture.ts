import { isArchitectureCompatibleWith } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
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
  const { rows } = await db.query<{ device_type: string; device_arch: string; fleet: string; fleet_arch: string }>(
    `SELECT DISTINCT dt.slug AS device_type, da.slug AS device_arch, a.slug AS fleet, fa.slug AS fleet_arch
       FROM device d
       JOIN device_type dt ON dt.id = d.is_of__device_type
       JOIN cpu_architecture da ON da.id = dt.is_of__cpu_architecture
       JOIN application a ON a.id = d.belongs_to__application
       JOIN device_type fdt ON fdt.id = a.is_for__device_type
       JOIN cpu_architecture fa ON fa.id = fdt.is_of__cpu_architecture
      WHERE d.id = ANY($1::int[]) AND da.id <> fa.id`,
    [ids],
  );
  const wrong = rows.find((r) => !isArchitectureCompatibleWith(r.device_arch, r.fleet_arch));
  if (!wrong) return;
  if (method === 'PATCH' && 'belongs_to__application' in body) throw new BadRequestError(`Incompatible application: ${wrong.fleet}`);
  throw new BadRequestError(`Incompatible device type: ${wrong.device_type}`);
}
