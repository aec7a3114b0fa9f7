import type { Row } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';

// The users feature's SQL: user accounts and the personal organization each one gets.

/** Whether any user has the platform role administrator. */
export async function platformAdministratorExists(db: Db): Promise<boolean> {
  const { rowCount } = await db.query(`SELECT 1 FROM "user" WHERE platform_role = 'administrator' LIMIT 1`);
  return rowCount > 0;
}

/** Whether `candidate` is taken as a username, or as an organization's handle or name (case-insensitively). */
export async function usernameTaken(db: Db, candidate: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM "user" WHERE lower(username) = lower($1)
       UNION ALL SELECT 1 FROM organization WHERE handle = lower($1) OR lower(name) = lower($1)`,
    [candidate],
  );
  return rowCount > 0;
}

/** Whether a user has this e-mail address (case-insensitively). */
export async function emailTaken(db: Db, email: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM "user" WHERE lower(email) = lower($1)', [email]);
  return rowCount > 0;
}

/** The columns of a new user (`password` is the hash; null: none, e.g. a SAML account). */
export type NewUserRow = Pick<Row<'user'>, 'actor' | 'username' | 'email' | 'platform_role' | 'is_verified' | 'has_disabled_newsletter'> & { password: string | null };

/**
 * Inserts the user and their personal organization (name and handle from the username), both
 * or neither: inside the caller's transaction, under a savepoint that is rolled back when
 * either insert fails (a unique index the caller may retry on), and the error rethrown.
 */
export async function insertUserWithOrganization(
  tx: Db,
  user: NewUserRow,
): Promise<{ userId: Row<'user'>['id']; organizationId: Row<'organization'>['id'] }> {
  await tx.query('SAVEPOINT pick_username');
  try {
    const inserted = (
      await tx.query<{ id: number }>(
        `INSERT INTO "user" (actor, username, email, password, has_password_set, platform_role, is_verified, has_disabled_newsletter)
         VALUES ($1, $2, $3, $4, $8, $5, $6, $7) RETURNING id`,
        [user.actor, user.username, user.email, user.password, user.platform_role, user.is_verified, user.has_disabled_newsletter, user.password !== null],
      )
    ).rows[0]!;
    const org = (
      await tx.query<{ id: number }>('INSERT INTO organization (name, handle) VALUES ($1, $2) RETURNING id', [
        user.username,
        user.username.toLowerCase(),
      ])
    ).rows[0]!;
    await tx.query('RELEASE SAVEPOINT pick_username');
    return { userId: inserted.id, organizationId: org.id };
  } catch (err) {
    await tx.query('ROLLBACK TO SAVEPOINT pick_username');
    throw err;
  }
}

/** Makes the user an administrator of the organization. */
export async function addOrganizationAdministrator(db: Db, userId: Row<'user'>['id'], organizationId: Row<'organization'>['id']): Promise<void> {
  await db.query(
    `INSERT INTO organization_membership ("user", is_member_of__organization, organization_membership_role)
     SELECT $1, $2, id FROM organization_membership_role WHERE name = 'administrator'`,
    [userId, organizationId],
  );
}
