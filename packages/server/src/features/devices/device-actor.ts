import type { Db } from '../../infra/db/db.js';
import { selectDeviceActors } from './device.repository.js';

/** The actors of the given devices (read before they are deleted; fleets' `deleteUnusedActors` removes them after). */
export async function actorsOfDevices(db: Db, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  return selectDeviceActors(db, ids);
}
