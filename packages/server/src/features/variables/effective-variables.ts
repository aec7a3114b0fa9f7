import { effectiveConfig, type EffectiveVariablesResponse } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { NotFoundError, UnauthorizedError } from '../../infra/errors.js';
import type { Actor } from '../../infra/http/actor.js';
import { odataRead } from '../../infra/odata/index.js';
import { directParts, loadTargetParts } from '../device-api/index.js';
import { selectDeviceTypeOfDevice } from './variable.repository.js';

export const DEVICE_NOT_FOUND = 'Device not found';

/**
 * What device `uuid` gets (issue 16 item 2): every variable of its target state with the level
 * that supplied it and what it overrides, read from the same parts and computed by the same
 * model functions as the target state the device fetches; plus, for configuration, the
 * defaults of its device type's schema that nothing sets (shown, not sent). Whoever may read
 * the device may read this (the data API's read rule, asked with the caller's permissions);
 * anyone else gets 404 'Device not found', whether it exists or not.
 */
export async function effectiveVariables(db: Db, actor: Actor | null, uuid: string, options: { holdFrozen?: boolean } = {}): Promise<EffectiveVariablesResponse> {
  if (!actor) throw new UnauthorizedError();
  const ctx = { actorId: actor.actorId, permissions: actor.permissions };
  // `uuid` is hex (the route's schema), so it needs no escaping in the filter.
  const [device] = await odataRead<{ id: number; uuid: string }>(db, ctx, `/device?$select=id,uuid&$filter=uuid eq '${uuid}'`);
  if (!device) throw new NotFoundError(DEVICE_NOT_FOUND);
  // The same parts as the device's own target state, the frozen hold included (billing on).
  const parts = await loadTargetParts(db, device.id, { ...directParts(db), holdFrozen: options.holdFrozen === true });
  if (!parts) throw new NotFoundError(DEVICE_NOT_FOUND);
  const type = await selectDeviceTypeOfDevice(db, device.id);
  const release = parts.fleet.release;
  return {
    device: { id: device.id, uuid: device.uuid, device_type: type?.slug ?? null },
    release: release ? { id: release.id, commit: release.commit } : null,
    config: effectiveConfig(parts.fleet.config, parts.deviceConfig, type?.schema ?? undefined),
    services: parts.services.map((s) => ({ id: s.id, service_name: s.name, environment: s.effective })),
  };
}
