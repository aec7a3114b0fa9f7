import type { Row } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';

// The admin feature's SQL: the users platform staff act on.

export type LoginAsTarget = Pick<Row<'user'>, 'id' | 'username' | 'platform_role'>;

/** The user with this username (case-insensitively). */
export async function userByUsername(db: Db, username: string): Promise<LoginAsTarget | undefined> {
  const { rows } = await db.query<LoginAsTarget>('SELECT id, username, platform_role FROM "user" WHERE lower(username) = lower($1) LIMIT 1', [username]);
  return rows[0];
}
