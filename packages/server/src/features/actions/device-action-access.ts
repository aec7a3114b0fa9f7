import type { Db } from '../../infra/db/db.js';
import { BadRequestError, ForbiddenError, NotFoundError, UnauthorizedError } from '../../infra/errors.js';
import type { Actor } from '../../infra/http/actor.js';
import { odataRead, type DataContext } from '../../infra/odata/index.js';
import { compileAffectedIds } from '../../infra/odata/query.js';
import { paramsFor, runStatement } from '../../infra/odata/sql.js';
import { parseUrl } from '../../infra/odata/url.js';

export interface ActionDevice {
  id: number;
  uuid: string;
  is_online: boolean;
  belongs_to__application: { __id: number };
}

export type DeviceRef = { deviceId: number } | { uuid: string };

const SELECT = '$select=id,uuid,is_online,belongs_to__application';
const literal = (s: string) => `'${encodeURIComponent(s.replaceAll("'", "''"))}'`;

/**
 * The device an action names, read with the caller's own permissions (404 when they cannot
 * see it), and the device update right (spec 2 §6: `resin.device.update` covers reboot,
 * shutdown, purge, identify…; operator and up) checked by the data API's compiled update
 * rule on that row, so no handler re-implements who may act.
 */
export async function deviceForAction(db: Db, actor: Actor | null, ref: DeviceRef): Promise<ActionDevice> {
  const ctx = dataContextOf(actor);
  const filter = 'deviceId' in ref ? `id eq ${ref.deviceId}` : `uuid eq ${literal(ref.uuid)}`;
  const [device] = await odataRead<ActionDevice>(db, ctx, `/device?${SELECT}&$filter=${filter}`);
  if (!device) throw new NotFoundError('Device not found');
  if (!(await mayUpdateDevice(db, ctx, device.id))) throw new ForbiddenError('You are not allowed to act on this device');
  return device;
}

async function mayUpdateDevice(db: Db, ctx: DataContext, deviceId: number): Promise<boolean> {
  return (await updatableDeviceIds(db, ctx, `/device(${deviceId})`)).length > 0;
}

/** The ids of the devices a data-API URL selects that the caller may update. */
export async function updatableDeviceIds(db: Db, ctx: DataContext, url: string): Promise<number[]> {
  let stmt;
  try {
    stmt = compileAffectedIds(parseUrl(url), ctx.permissions, 'update');
  } catch (err) {
    if (err instanceof UnauthorizedError) return []; // no update rule at all
    throw err;
  }
  // The statement locks the rows it selects (it serves PATCH); a transaction scopes the lock.
  const { rows } = await db.tx((tx) => runStatement<{ id: number }>(tx, stmt, paramsFor(stmt, ctx.actorId)));
  return rows.map((r) => r.id);
}

export function dataContextOf(actor: Actor | null): DataContext {
  if (!actor || actor.kind !== 'user') throw new UnauthorizedError();
  return { actorId: actor.actorId, permissions: actor.permissions };
}

/** The dialect's action bodies name the device by `deviceId` or `uuid`. */
export function deviceRefOf(body: { deviceId?: number; uuid?: string }): DeviceRef {
  if (typeof body.deviceId === 'number') return { deviceId: body.deviceId };
  if (typeof body.uuid === 'string') return { uuid: body.uuid };
  throw new BadRequestError('deviceId or uuid is required');
}
