import type { Db } from '../../infra/db/db.js';

/**
 * The actors of the given fleets and of their devices, read before a fleet DELETE: the
 * devices, releases and tags go by FK cascade, the actors (with their provisioning and
 * device keys) are removed afterwards (devices/device-actor.ts).
 */
export async function actorsOfFleets(db: Db, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<{ actor: number }>(
    `SELECT actor FROM application WHERE id = ANY($1::int[])
     UNION SELECT actor FROM device WHERE belongs_to__application = ANY($1::int[])`,
    [ids],
  );
  return rows.map((r) => r.actor);
}
