import type { Db } from '../../infra/db/db.js';
import { BadRequestError, ForbiddenError, NotFoundError, UnauthorizedError } from '../../infra/errors.js';
import type { Actor } from '../../infra/http/actor.js';
import { odataActionableIds, odataRead, type DataContext } from '../../infra/odata/index.js';

export interface ActionDevice {
  id: number;
  uuid: string;
  is_online: boolean;
  belongs_to__application: { __id: number };
}

/** The devices a supervisor-API request names (dialect §4.6): any of fleet, device id and uuid, AND-ed. */
export interface DeviceSelector {
  appId?: number;
  deviceId?: number;
  uuid?: string;
}

/** balena's answer (404) when the caller can see no online device matching the request. */
export const NO_ONLINE_DEVICES = 'No online device(s) found';

const SELECT = '$select=id,uuid,is_online,belongs_to__application';
const literal = (s: string) => `'${encodeURIComponent(s.replaceAll("'", "''"))}'`;

/** The `$filter` of a selector; 400 when it names nothing (balena's text). */
function selectorFilter(sel: DeviceSelector): string {
  const clauses: string[] = [];
  if (sel.appId !== undefined) clauses.push(`belongs_to__application eq ${sel.appId}`);
  if (sel.deviceId !== undefined) clauses.push(`id eq ${sel.deviceId}`);
  if (sel.uuid !== undefined) clauses.push(`uuid eq ${literal(sel.uuid)}`);
  if (clauses.length === 0) throw new BadRequestError('At least one filter must be specified');
  return clauses.join(' and ');
}

/**
 * The online devices a supervisor-API request reaches, as balena's device proxy picks them:
 * the devices matching `sel` that the caller may read and that are online (a live cloud
 * link), read with the caller's own permissions, so a device they cannot see is the same
 * 404 'No online device(s) found' as an offline one. A request that changes something
 * (`write`: every method but GET) needs the device update right (spec 2 §6:
 * `resin.device.update`, operator and up) on each of them, checked by the data API's
 * compiled update rule: 403 otherwise. Reading (supervisor state, ping) needs only read.
 */
export async function onlineDevicesFor(db: Db, actor: Actor | null, sel: DeviceSelector, write: boolean): Promise<ActionDevice[]> {
  const ctx = dataContextOf(actor);
  const filter = selectorFilter(sel);
  const devices = await odataRead<ActionDevice>(db, ctx, `/device?${SELECT}&$filter=${filter} and is_online eq true&$orderby=id asc`);
  if (devices.length === 0) throw new NotFoundError(NO_ONLINE_DEVICES);
  if (write) {
    // Over the selector without the online clause, so a link dropping in between is no 403.
    const allowed = new Set(await updatableDeviceIds(db, ctx, `/device?$filter=${filter}`));
    if (devices.some((d) => !allowed.has(d.id))) throw new ForbiddenError('You are not allowed to act on this device');
  }
  return devices;
}

/** The ids of the devices a data-API URL selects that the caller may update. */
export function updatableDeviceIds(db: Db, ctx: DataContext, url: string): Promise<number[]> {
  return odataActionableIds(db, ctx, url, 'update');
}

export function dataContextOf(actor: Actor | null): DataContext {
  if (!actor || actor.kind !== 'user') throw new UnauthorizedError();
  return { actorId: actor.actorId, permissions: actor.permissions };
}
