import type { DeviceOperation } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import type { Actor } from '../../infra/http/actor.js';
import { odataPermittedIds } from '../../infra/odata/index.js';

/**
 * Whether `actor` may perform a live operation on a device (spec 2 §6: `ssh` a container
 * terminal, `ssh-host` a host terminal, `access_diagnostics`, `delete_logs`), decided by the
 * model's `resin.device.<operation>` rules on the device row — the same compiled rules as
 * every data-API request, so a device the caller cannot read is simply not allowed. Users
 * (session or API key) only: devices and provisioning keys hold none of these rights.
 */
export async function deviceOperationAllowed(db: Db, actor: Actor | null, deviceId: number, operation: DeviceOperation): Promise<boolean> {
  if (!actor || actor.kind !== 'user' || !Number.isSafeInteger(deviceId)) return false;
  const ids = await odataPermittedIds(db, { actorId: actor.actorId, permissions: actor.permissions }, `/device?$filter=id eq ${deviceId}`, operation);
  return ids.length === 1;
}
