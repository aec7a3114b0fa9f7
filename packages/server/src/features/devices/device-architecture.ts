import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';

/**
 * Rule: a device's type has the CPU architecture of its fleet's default device type, on
 * create, on a type change and on a move to another fleet (spec 2 §5 Devices: only fleets
 * with a compatible architecture are offered). Checked on the written rows, after the
 * permission checks, so the answer says nothing about fleets the caller cannot write.
 */
export async function checkDeviceArchitecture(
  db: Db,
  method: 'POST' | 'PATCH',
  body: Record<string, unknown>,
  ids: readonly number[],
): Promise<void> {
  if (ids.length === 0) return;
  if (!('is_of__device_type' in body) && !('belongs_to__application' in body)) return;
  const { rowCount } = await db.query(
    `SELECT 1
       FROM device d
       JOIN device_type dt ON dt.id = d.is_of__device_type
       JOIN application a ON a.id = d.belongs_to__application
       JOIN device_type fdt ON fdt.id = a.is_for__device_type
      WHERE d.id = ANY($1::int[]) AND dt.is_of__cpu_architecture <> fdt.is_of__cpu_architecture
      LIMIT 1`,
    [ids],
  );
  if (!rowCount) return;
  if (method === 'PATCH' && 'belongs_to__application' in body) {
    throw new BadRequestError('No applications with compatible architecture: the target fleet has a different CPU architecture than the device');
  }
  throw new BadRequestError("The device type must have the same CPU architecture as the fleet's default device type");
}
