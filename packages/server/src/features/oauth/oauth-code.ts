import { createHash } from 'node:crypto';
import { alphanumericSecret } from '../../infra/auth/secret.js';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError, NotFoundError } from '../../infra/errors.js';
import {
  deleteCodesExpiredBefore,
  findOAuthApplication,
  insertAuthorizationCode,
  recordAuthorization,
  useAuthorizationCode,
  type OAuthApplicationRow,
} from './oauth.repository.js';

/** Authorization codes live this long (RFC 6749 §4.1.2 recommends at most 10 minutes). */
export const OAUTH_CODE_LIFETIME_MS = 5 * 60 * 1000;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export type { OAuthApplicationRow };

export async function applicationByClientId(db: Db, clientId: string): Promise<OAuthApplicationRow> {
  const app = await findOAuthApplication(db, clientId);
  if (!app) throw new NotFoundError('Unknown OAuth application');
  return app;
}

/**
 * The user consents to the application (spec 1 §2 `/login/oauth/{clientId}`, §7 `POST
 * /oauth/authorize`): the consent is recorded (oauth_application_authorization, once per
 * user and application) and a single-use code is issued for the application's registered
 * redirect_uri. Only the code's SHA-256 is stored.
 */
export async function authorize(db: Db, userId: number, clientId: string, now: number = Date.now()): Promise<{ code: string; redirectUri: string }> {
  const app = await applicationByClientId(db, clientId);
  const code = alphanumericSecret(256);
  await db.tx(async (tx) => {
    await recordAuthorization(tx, userId, app.id);
    await insertAuthorizationCode(tx, {
      hash: sha256(code),
      userId,
      applicationId: app.id,
      redirectUri: app.redirect_uri,
      expiresAt: new Date(now + OAUTH_CODE_LIFETIME_MS),
    });
    // Keep the table small: codes that can no longer be used.
    await deleteCodesExpiredBefore(tx, new Date(now - OAUTH_CODE_LIFETIME_MS));
  });
  return { code, redirectUri: app.redirect_uri };
}

export const INVALID_GRANT = 'invalid_grant';

/**
 * Exchanges a code for the user it was issued to: it must exist, belong to `clientId`, name
 * the same redirect_uri when one is given, be unexpired and unused. It is marked used in
 * the same statement, so two concurrent exchanges cannot both succeed.
 */
export async function redeemCode(
  db: Db,
  input: { code: string; clientId: string; redirectUri?: string },
  now: number = Date.now(),
): Promise<{ userId: number }> {
  const userId = await useAuthorizationCode(db, sha256(input.code), input.clientId, input.redirectUri ?? null, new Date(now));
  if (userId === undefined) throw new BadRequestError(INVALID_GRANT);
  return { userId };
}
