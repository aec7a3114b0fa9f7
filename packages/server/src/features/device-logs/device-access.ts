import type { Db } from '../../infra/db/db.js';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../../infra/errors.js';
import type { Actor } from '../../infra/http/actor.js';
import { odataRead } from '../../infra/odata/index.js';
import { deviceUuidOf } from './device-logs.repository.js';

/**
 * Who may write and read a device's logs. Writing: the device itself, by its device key
 * (another device's uuid is 403, anyone else 401), as open-balena-api's `write-log` check.
 * Reading: whoever the data API lets read the device, with their own permissions; a device
 * they cannot see is 404 as in open-balena-api's reader (anonymous: 401).
 */
export class DeviceLogAccess {
  /** device id → uuid of device keys that wrote lately (a uuid never changes). */
  private readonly uuids = new Map<number, string>();

  constructor(
    private readonly db: Db,
    private readonly maxCached = 50_000,
  ) {}

  /** The id of the device writing to `uuid`'s logs. */
  async writer(actor: Actor | null, uuid: string): Promise<number> {
    if (!actor || actor.kind !== 'device' || actor.deviceId === undefined) throw new UnauthorizedError('A device API key is required to write device logs');
    const deviceId = actor.deviceId;
    let own = this.uuids.get(deviceId);
    if (own === undefined) {
      own = await deviceUuidOf(this.db, deviceId);
      if (own === undefined) throw new UnauthorizedError('A device API key is required to write device logs');
      if (this.uuids.size >= this.maxCached) this.uuids.clear();
      this.uuids.set(deviceId, own);
    }
    if (own.toLowerCase() !== uuid.toLowerCase()) throw new ForbiddenError('A device may only write its own logs');
    return deviceId;
  }

  /** The id of device `uuid` when `actor` may read it. */
  async reader(actor: Actor | null, uuid: string): Promise<number> {
    if (!actor) throw new UnauthorizedError();
    const literal = `'${encodeURIComponent(uuid.replaceAll("'", "''"))}'`;
    const [device] = await odataRead<{ id: number }>(this.db, { actorId: actor.actorId, permissions: actor.permissions }, `/device?$select=id&$filter=uuid eq ${literal}`);
    if (!device) throw new NotFoundError(`No device with uuid ${uuid}`);
    return device.id;
  }
}
