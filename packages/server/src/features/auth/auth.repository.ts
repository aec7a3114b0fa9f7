import type { Db } from '../../infra/db/db.js';

// The auth feature's SQL: the user a login names, the rows whoami answers with, and the
// facts of a sign-up with a taken address. Every function takes the pool or a transaction first.

/** The account a login names by e-mail or username (case-insensitive), with its password hash. */
export async function findLoginUser(db: Db, name: string): Promise<{ id: number; password: string | null } | undefined> {
  const { rows } = await db.query<{ id: number; password: string | null }>(
    'SELECT id, password FROM "user" WHERE lower(email) = lower($1) OR lower(username) = lower($1) LIMIT 1',
    [name],
  );
  return rows[0];
}

export interface WhoamiUserRow {
  id: number;
  username: string;
  email: string;
}

export async function findWhoamiUser(db: Db, userId: number): Promise<WhoamiUserRow | undefined> {
  const { rows } = await db.query<WhoamiUserRow>('SELECT id, username, email FROM "user" WHERE id = $1', [userId]);
  return rows[0];
}

export async function findDeviceUuid(db: Db, deviceId: number): Promise<string | undefined> {
  const { rows } = await db.query<{ uuid: string }>('SELECT uuid FROM device WHERE id = $1', [deviceId]);
  return rows[0]?.uuid;
}

export async function findApplicationSlug(db: Db, applicationId: number): Promise<string | undefined> {
  const { rows } = await db.query<{ slug: string }>('SELECT slug FROM application WHERE id = $1', [applicationId]);
  return rows[0]?.slug;
}

/** The e-mail address (as the owner spelled it) of the account holding `email`, compared case-insensitively. */
export async function findOwnerEmail(db: Db, email: string): Promise<string | undefined> {
  const { rows } = await db.query<{ email: string }>('SELECT email FROM "user" WHERE lower(email) = lower($1)', [email]);
  return rows[0]?.email;
}

/** The id the next new user would get (sign-up-existing.ts answers with it). */
export async function nextUserId(db: Db): Promise<number> {
  const { rows } = await db.query<{ next: number }>('SELECT COALESCE(max(id), 0)::int + 1 AS next FROM "user"');
  return rows[0]!.next;
}
