import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { Hook } from '../../infra/odata/index.js';

/**
 * Rule (dialect §2 "Membership and invites"): membership POSTs accept `username` in place
 * of `user`, e.g. `POST /v7/team_membership {"username":"bob","is_member_of__team":1}`.
 * Usernames match case-insensitively.
 */
export async function usernameToUser(db: Db, body: Record<string, unknown>): Promise<void> {
  if (!('username' in body)) return;
  const { username } = body;
  delete body.username;
  if (typeof username !== 'string' || username.trim() === '') throw new BadRequestError('username must be a non-empty string');
  const { rows } = await db.query<{ id: number }>('SELECT id FROM "user" WHERE lower(username) = lower($1)', [username.trim()]);
  const id = rows[0]?.id;
  if (id === undefined) throw new BadRequestError(`No user with the username '${username.trim()}'`);
  if (body.user !== undefined && body.user !== null && body.user !== id) {
    throw new BadRequestError('username and user name different users');
  }
  body.user = id;
}

export const acceptUsername: Hook = {
  acceptFields: ['username'],
  before: ({ db, body }) => usernameToUser(db, body),
};
