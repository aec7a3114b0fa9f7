import type { Row } from '@flotilla/model';
import type { Db } from '../db/db.js';

// The SQL of actors: the identity a user, fleet (its provisioning keys) or device acts as,
// and which every API key hangs off. One home for the features that create actors (users,
// fleets, devices), remove them (fleets, devices) and revoke their keys (device-api).

/** A new actor (the identity a user, device or application acts as); its id. */
export async function insertActor(db: Db): Promise<Row<'actor'>['id']> {
  return (await db.query<{ id: number }>('INSERT INTO actor DEFAULT VALUES RETURNING id')).rows[0]!.id;
}

const actors = async (db: Db, sql: string, ids: readonly number[]): Promise<number[]> =>
  ids.length === 0 ? [] : (await db.query<{ a: number }>(sql, [ids])).rows.map((r) => r.a);

/** The actors holding the given API keys. */
export const actorsOfApiKeys = (db: Db, ids: readonly number[]) => actors(db, 'SELECT DISTINCT is_of__actor AS a FROM api_key WHERE id = ANY($1::int[])', ids);
/** The actors of the given devices. */
export const actorsOfDevices = (db: Db, ids: readonly number[]) => actors(db, 'SELECT actor AS a FROM device WHERE id = ANY($1::int[])', ids);
/** The actors of the given fleets and of their devices. */
export const actorsOfFleetsAndDevices = (db: Db, ids: readonly number[]) =>
  actors(
    db,
    'SELECT actor AS a FROM application WHERE id = ANY($1::int[]) UNION SELECT actor FROM device WHERE belongs_to__application = ANY($1::int[])',
    ids,
  );
/** The actors of the given users. */
export const actorsOfUsers = (db: Db, ids: readonly number[]) => actors(db, 'SELECT actor AS a FROM "user" WHERE id = ANY($1::int[])', ids);

/** Deletes the given actors that no user, fleet or device uses any more (their API keys go by FK cascade). */
export async function deleteActorsNotInUse(db: Db, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query(
    `DELETE FROM actor x WHERE x.id = ANY($1::int[])
        AND NOT EXISTS (SELECT 1 FROM "user" u WHERE u.actor = x.id)
        AND NOT EXISTS (SELECT 1 FROM application a WHERE a.actor = x.id)
        AND NOT EXISTS (SELECT 1 FROM device d WHERE d.actor = x.id)`,
    [ids],
  );
}
