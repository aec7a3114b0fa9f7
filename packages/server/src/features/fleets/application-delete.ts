import type { Db } from '../../infra/db/db.js';
import { deleteActorsNotInUse, selectActorsOfFleets } from './fleet.repository.js';

/**
 * The actors of the given fleets and of their devices, read before a fleet DELETE: the
 * devices, releases and tags go by FK cascade, the actors (with their provisioning and
 * device keys) are removed afterwards (`deleteUnusedActors`).
 */
export async function actorsOfFleets(db: Db, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  return selectActorsOfFleets(db, ids);
}

/**
 * Rule: when a device or fleet goes, its actor goes with it, and with the actor (FK cascade)
 * every API key it held: a deleted fleet's provisioning keys and a deleted device's keys
 * stop working. Actors still used by a user, fleet or device are kept. Public (index.ts):
 * the devices feature runs it after a device DELETE.
 */
export async function deleteUnusedActors(db: Db, actors: readonly number[]): Promise<void> {
  if (actors.length === 0) return;
  await deleteActorsNotInUse(db, actors);
}
