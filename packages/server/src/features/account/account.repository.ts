import type { SingleAdminOrganization } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';

// The account feature's SQL (e-mail and password change, account deletion). Every function
// takes the pool or the caller's transaction first.

/** Whether another account than `userId` holds `email` (compared case-insensitively). */
export async function emailTakenByOther(tx: Db, email: string, userId: number): Promise<boolean> {
  const taken = await tx.query('SELECT 1 FROM "user" WHERE lower(email) = lower($1) AND id <> $2', [email, userId]);
  return taken.rowCount > 0;
}

/** The user's current e-mail address, the row locked until the end of `tx`. */
export async function lockUserEmail(tx: Db, userId: number): Promise<string | undefined> {
  const { rows } = await tx.query<{ email: string }>('SELECT email FROM "user" WHERE id = $1 FOR UPDATE', [userId]);
  return rows[0]?.email;
}

/** Sets the address; unless `keepVerification`, the account must verify it again. */
export async function setUserEmail(tx: Db, userId: number, email: string, keepVerification: boolean): Promise<void> {
  await tx.query(
    `UPDATE "user" SET email = $2, is_verified = CASE WHEN $3::boolean THEN is_verified ELSE false END,
            has_been_sent_verification_email = CASE WHEN $3::boolean THEN has_been_sent_verification_email ELSE false END
      WHERE id = $1`,
    [userId, email, keepVerification],
  );
}

export async function hasPasswordSet(db: Db, userId: number): Promise<boolean> {
  const { rows } = await db.query<{ has_password_set: boolean }>('SELECT has_password_set FROM "user" WHERE id = $1', [userId]);
  return rows[0]?.has_password_set === true;
}

export async function setPasswordHash(db: Db, userId: number, hash: string): Promise<void> {
  await db.query('UPDATE "user" SET password = $2, has_password_set = true WHERE id = $1', [userId, hash]);
}

/** Organizations the user alone administers (with how many other members each has); `lock` locks them. */
export async function singleAdminOrganizationRows(db: Db, userId: number, lock: boolean): Promise<SingleAdminOrganization[]> {
  const { rows } = await db.query<SingleAdminOrganization>(
    `WITH admin AS (
       SELECT m."user", m.is_member_of__organization AS org FROM organization_membership m
         JOIN organization_membership_role r ON r.id = m.organization_membership_role AND r.name = 'administrator')
     SELECT o.id, o.name, o.handle,
            (SELECT count(*)::int FROM organization_membership m WHERE m.is_member_of__organization = o.id AND m."user" <> $1) AS "otherMembers"
       FROM organization o
      WHERE o.id IN (SELECT org FROM admin WHERE "user" = $1)
        AND NOT EXISTS (SELECT 1 FROM admin a WHERE a.org = o.id AND a."user" <> $1)
      ORDER BY o.name
      ${lock ? 'FOR UPDATE' : ''}`,
    [userId],
  );
  return rows;
}

/** How many applications and devices the organizations `orgIds` hold. */
export async function countOrganizationContents(db: Db, orgIds: number[]): Promise<{ applications: number; devices: number }> {
  const { rows } = await db.query<{ applications: number; devices: number }>(
    `SELECT (SELECT count(*)::int FROM application WHERE organization = ANY($1::int[])) AS applications,
            (SELECT count(*)::int FROM device d JOIN application a ON a.id = d.belongs_to__application
              WHERE a.organization = ANY($1::int[])) AS devices`,
    [orgIds],
  );
  return { applications: rows[0]?.applications ?? 0, devices: rows[0]?.devices ?? 0 };
}

/** Deletes the user row; answers its actor id (undefined when there was no such user). */
export async function deleteUserRow(tx: Db, userId: number): Promise<number | undefined> {
  const { rows } = await tx.query<{ actor: number }>('DELETE FROM "user" WHERE id = $1 RETURNING actor', [userId]);
  return rows[0]?.actor;
}

export async function deleteActor(tx: Db, actorId: number): Promise<void> {
  await tx.query('DELETE FROM actor WHERE id = $1', [actorId]);
}
