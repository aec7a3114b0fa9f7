import { SESSION_TOKEN_LIFETIME_SECONDS } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { signJwt } from '../../infra/auth/jwt.js';
import { claimPermissions } from '../../infra/auth/authenticate.js';
import { NotFoundError } from '../../infra/errors.js';

/**
 * Issues a 36-hour session token for a user. `authTime` is kept across refreshes;
 * `actualUser` is the platform administrator when one logs in as this user (admin login-as).
 */
export async function issueSessionToken(
  db: Db,
  secret: string,
  userId: number,
  authTime: number = Date.now(),
  actualUser: number = userId,
): Promise<string> {
  const { rows } = await db.query<{ platform_role: string | null }>('SELECT platform_role FROM "user" WHERE id = $1', [userId]);
  const user = rows[0];
  if (!user) throw new NotFoundError('User not found');
  return signJwt(
    { id: userId, authTime, actualUser, permissions: claimPermissions(user.platform_role) },
    secret,
    SESSION_TOKEN_LIFETIME_SECONDS,
  );
}
