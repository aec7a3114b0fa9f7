import { randomBytes } from 'node:crypto';
import { isValidEmail, passwordProblem, usernameFromEmail } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError, ConflictError } from '../../infra/errors.js';
import { hashPassword } from '../../infra/auth/password.js';
import { insertActor } from '../../infra/auth/actor.repository.js';
import { addOrganizationAdministrator, emailTaken, insertUserWithOrganization, usernameTaken } from './user.repository.js';

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
    if (!(await usernameTaken(db, candidate))) return candidate;
  }
  throw new ConflictError('Could not derive a unique username');
}

/**
 * Creates a user with a username derived from the email and made unique, and the user's
 * personal organization (handle = username) with the user as its administrator. `password`
 * null: an account without one (a SAML sign-in creates it, issue 20; no password login).
 */
export async function createUser(
  db: Db,
  input: { email: string; password: string | null; platformRole?: 'administrator' | 'support_agent'; isVerified?: boolean; hasDisabledNewsletter?: boolean },
): Promise<CreatedUser> {
  const email = input.email.trim();
  if (!isValidEmail(email)) throw new BadRequestError('Invalid email');
  const problem = input.password === null ? null : passwordProblem(input.password);
  if (problem) throw new BadRequestError(problem);
  const passwordHash = input.password === null ? null : await hashPassword(input.password);
  return db.tx(async (tx) => {
    if (await emailTaken(tx, email)) throw new ConflictError(EMAIL_TAKEN);
    const actor = await insertActor(tx);
    // Two sign-ups whose e-mails derive the same username can both find it free: the later
    // insert then hits a unique index, and takes the next candidate instead of failing.
    let skip = 0;
    for (;;) {
      const username = await uniqueUsername(tx, usernameFromEmail(email), skip);
      let inserted: { userId: number; organizationId: number };
      try {
        inserted = await insertUserWithOrganization(tx, {
          actor,
          username,
          email,
          password: passwordHash,
          platform_role: input.platformRole ?? null,
          is_verified: input.isVerified ?? false,
          has_disabled_newsletter: input.hasDisabledNewsletter ?? false,
        });
      } catch (err) {
        const e = err as { code?: string; constraint?: string };
        if (e.code === '23505' && e.constraint === 'user_email_ci_key') throw new ConflictError(EMAIL_TAKEN);
        if (e.code !== '23505' || !USERNAME_CONSTRAINTS.has(e.constraint ?? '') || skip >= MAX_USERNAME_RETRIES) throw err;
        skip++;
        continue;
      }
      // The new user administers their personal organization.
      await addOrganizationAdministrator(tx, inserted.userId, inserted.organizationId);
      return { id: inserted.userId, actor, username, email, organizationId: inserted.organizationId };
    }
  });
}

/** Unique indexes a freshly derived username (and its organization) can collide on. */
const USERNAME_CONSTRAINTS = new Set(['user_username_ci_key', 'organization_handle_key', 'organization_name_ci_key']);
const MAX_USERNAME_RETRIES = 20;
export const EMAIL_TAKEN = 'This email is already taken';
