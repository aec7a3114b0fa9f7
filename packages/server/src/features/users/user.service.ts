import { randomBytes } from 'node:crypto';
import { isValidEmail, passwordProblem, usernameFromEmail } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError, ConflictError } from '../../infra/errors.js';
import { hashPassword } from '../../infra/auth/password.js';

export interface CreatedUser {
  id: number;
  actor: number;
  username: string;
  email: string;
  organizationId: number;
}

/** Picks a username free both as a username and as an organization handle (from the `skip`-th candidate on). */
async function uniqueUsername(db: Db, base: string, skip = 0): Promise<string> {
  for (let i = skip; i < 50 + skip; i++) {
    const candidate = i === 0 ? base : i < 10 ? `${base}${i + 1}` : `${base}_${randomBytes(3).toString('hex')}`;
    const { rowCount } = await db.query(
      `SELECT 1 FROM "user" WHERE lower(username) = lower($1)
       UNION ALL SELECT 1 FROM organization WHERE handle = lower($1) OR lower(name) = lower($1)`,
      [candidate],
    );
    if (rowCount === 0) return candidate;
  }
  throw new ConflictError('Could not derive a unique username');
}

/**
 * Creates a user with a username derived from the email and made unique, and the user's
 * personal organization (handle = username) with the user as its administrator.
 */
export async function createUser(
  db: Db,
  input: { email: string; password: string; platformRole?: 'administrator' | 'support_agent'; isVerified?: boolean; hasDisabledNewsletter?: boolean },
): Promise<CreatedUser> {
  const email = input.email.trim();
  if (!isValidEmail(email)) throw new BadRequestError('Invalid email');
  const problem = passwordProblem(input.password);
  if (problem) throw new BadRequestError(problem);
  const passwordHash = await hashPassword(input.password);
  return db.tx(async (tx) => {
    const taken = await tx.query('SELECT 1 FROM "user" WHERE lower(email) = lower($1)', [email]);
    if (taken.rowCount > 0) throw new ConflictError(EMAIL_TAKEN);
    const actor = (await tx.query<{ id: number }>('INSERT INTO actor DEFAULT VALUES RETURNING id')).rows[0]!.id;
    // Two sign-ups whose e-mails derive the same username can both find it free: the later
    // insert then hits a unique index, and takes the next candidate instead of failing.
    let skip = 0;
    for (;;) {
      const username = await uniqueUsername(tx, usernameFromEmail(email), skip);
      await tx.query('SAVEPOINT pick_username');
      try {
        const user = (
          await tx.query<{ id: number }>(
            `INSERT INTO "user" (actor, username, email, password, has_password_set, platform_role, is_verified, has_disabled_newsletter)
             VALUES ($1, $2, $3, $4, true, $5, $6, $7) RETURNING id`,
            [actor, username, email, passwordHash, input.platformRole ?? null, input.isVerified ?? false, input.hasDisabledNewsletter ?? false],
          )
        ).rows[0]!;
        const org = (
          await tx.query<{ id: number }>('INSERT INTO organization (name, handle) VALUES ($1, $2) RETURNING id', [username, username.toLowerCase()])
        ).rows[0]!;
        await tx.query('RELEASE SAVEPOINT pick_username');
        return await finishUser(tx, { id: user.id, actor, username, email, organizationId: org.id });
      } catch (err) {
        await tx.query('ROLLBACK TO SAVEPOINT pick_username');
        const e = err as { code?: string; constraint?: string };
        if (e.code === '23505' && e.constraint === 'user_email_ci_key') throw new ConflictError(EMAIL_TAKEN);
        if (e.code !== '23505' || !USERNAME_CONSTRAINTS.has(e.constraint ?? '') || skip >= MAX_USERNAME_RETRIES) throw err;
        skip++;
      }
    }
  });
}

/** Unique indexes a freshly derived username (and its organization) can collide on. */
const USERNAME_CONSTRAINTS = new Set(['user_username_ci_key', 'organization_handle_key', 'organization_name_ci_key']);
const MAX_USERNAME_RETRIES = 20;
export const EMAIL_TAKEN = 'This email is already taken';

/** The new user administers their personal organization. */
async function finishUser(tx: Db, created: CreatedUser): Promise<CreatedUser> {
  await tx.query(
    `INSERT INTO organization_membership ("user", is_member_of__organization, organization_membership_role)
     SELECT $1, $2, id FROM organization_membership_role WHERE name = 'administrator'`,
    [created.id, created.organizationId],
  );
  return created;
}
