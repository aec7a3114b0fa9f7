import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';

const SERVICE_NOT_FOUND = 'Service not found';

/**
 * Rule (spec 2 §5 Variables): a service variable names an existing service, else 'Service
 * not found' (rather than the generic foreign-key answer). Whether the caller may write
 * variables of that service's fleet is the create rule's business.
 */
export async function checkServiceExists(db: Db, body: HookBody<'service_environment_variable', 'POST'>): Promise<void> {
  if (typeof body.service !== 'number') return;
  const { rowCount } = await db.query('SELECT 1 FROM service WHERE id = $1', [body.service]);
  if (rowCount === 0) throw new BadRequestError(SERVICE_NOT_FOUND);
}

/** Same for a device's service override: its service install must exist. */
export async function checkServiceInstallExists(db: Db, body: HookBody<'device_service_environment_variable', 'POST'>): Promise<void> {
  if (typeof body.service_install !== 'number') return;
  const { rowCount } = await db.query('SELECT 1 FROM service_install WHERE id = $1', [body.service_install]);
  if (rowCount === 0) throw new BadRequestError(SERVICE_NOT_FOUND);
}

/**
 * Rule: a device's service override is for a service of the device's own fleet; a service
 * install left from another fleet (a moved device) answers 'Service not found'. Checked
 * after the create permission check, so a refusal tells the caller nothing about rows they
 * may not write.
 */
export async function checkServiceOfDeviceFleet(db: Db, ids: readonly number[]): Promise<void> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM device_service_environment_variable v
       JOIN service_install si ON si.id = v.service_install
       JOIN service s ON s.id = si.installs__service
       JOIN device d ON d.id = si.device
      WHERE v.id = ANY($1::int[]) AND s.application <> d.belongs_to__application`,
    [ids],
  );
  if (rowCount > 0) throw new BadRequestError(SERVICE_NOT_FOUND);
}
