import type { Db } from '../../infra/db/db.js';
import { deleteActorsNotInUse } from '../../infra/auth/actor.repository.js';

/**
 * Rule: when a device or fleet goes, its actor goes with it, and with the actor (FK cascade)
 * every API key it held: a deleted fleet's provisioning keys and a deleted device's keys
 * stop working. Actors still used by a user, fleet or device are kept. The actors are read
 * before the DELETE (`actorsOfFleetsAndDevices`, `actorsOfDevices` in
 * infra/auth/actor.repository.ts): the devices, releases and tags go by FK cascade, the
 * actors (with their provisioning and device keys) are removed afterwards. Public
 * (index.ts): the devices feature runs it after a device DELETE.
 */
export async function deleteUnusedActors(db: Db, actors: readonly number[]): Promise<void> {
  await deleteActorsNotInUse(db, actors);
}
