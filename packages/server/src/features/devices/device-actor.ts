import type { Db } from '../../infra/db/db.js';

/** The actors of the given devices (read before they are deleted). */
export async function actorsOfDevices(db: Db, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<{ actor: number }>('SELECT actor FROM device WHERE id = ANY($1::int[])', [ids]);
  return rows.map((r) => r.actor);
}

/**
 * Rule: when a device or fleet goes, its actor goes with it, and with the actor (FK cascade)
 * every API key it held: a deleted fleet's provisioning keys and a deleted device's keys
 * stop working. Actors still used by a user, fleet or device are kept.
 */
export async function deleteUnusedActors(db: Db, actors: readonly number[]): Promise<void> {
  if (actors.length === 0) return;
  await db.query(
    `DELETE FROM actor x WHERE x.id = ANY($1::int[])
        AND NOT EXISTS (SELECT 1 FROM "user" u WHERE u.actor = x.id)
        AND NOT EXISTS (SELECT 1 FROM application a WHERE a.actor = x.id)
        AND NOT EXISTS (SELECT 1 FROM device d WHERE d.actor = x.id)`,
    [actors],
  );
}
