import type { Row } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';

// The SSH keys feature's SQL (the keys themselves are read and written through the data API).

/** The id of the user whose actor is `actorId`, if the actor is a user. */
export async function userIdOfActor(db: Db, actorId: Row<'actor'>['id'] | null): Promise<Row<'user'>['id'] | undefined> {
  const { rows } = await db.query<Pick<Row<'user'>, 'id'>>('SELECT id FROM "user" WHERE actor = $1', [actorId]);
  return rows[0]?.id;
}
