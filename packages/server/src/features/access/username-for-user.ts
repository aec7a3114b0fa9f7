import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { Rule } from '../../infra/app/context.js';
import { odataRead, type DataContext, type HookBody } from '../../infra/odata/index.js';

/**
 * Rule (dialect §2 "Membership and invites"): membership POSTs accept `username` in place
 * of `user`, e.g. `POST /v7/team_membership {"username":"bob","is_member_of__team":1}`.
 * Usernames match case-insensitively, among the users the caller may read (themself and
 * the people they share an organization with, spec 1 §3's "existing member … by username"):
 * anyone else gets the same answer as a username nobody has, so the path cannot enumerate
 * accounts (issue 11, 1g). Everyone else joins through an invitation.
 */
/** The membership resources whose POST accepts `username`. */
type MembershipResource = 'user_application_membership' | 'team_membership' | 'organization_membership';

export async function usernameToUser(db: Db, actor: DataContext, body: HookBody<MembershipResource, 'POST'>): Promise<void> {
  if (!('username' in body)) return;
  const { username } = body;
  delete body.username;
  if (typeof username !== 'string' || username.trim() === '') throw new BadRequestError('username must be a non-empty string');
  const literal = encodeURIComponent(`'${username.trim().toLowerCase().replaceAll("'", "''")}'`);
  const rows = await odataRead<{ id: number }>(db, actor, `/user?$select=id&$filter=tolower(username) eq ${literal}`);
  const id = rows[0]?.id;
  if (id === undefined) throw new BadRequestError(`No user with the username '${username.trim()}'`);
  if (body.user !== undefined && body.user !== null && body.user !== id) {
    throw new BadRequestError('username and user name different users');
  }
  body.user = id;
}

export const acceptUsername: Rule<MembershipResource, 'POST', 'username'> = {
  acceptFields: ['username'],
  before: ({ tx, actor, body }) => usernameToUser(tx, actor, body),
};
