import type { FastifyInstance } from 'fastify';
import { SESSION_TOKEN_LIFETIME_SECONDS } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import { requireUser } from '../../infra/http/guards.js';
import { objectOf, SHORT_CODE, URL_INPUT } from '../../infra/http/schemas.js';
import { issueSessionToken } from '../../infra/auth/session.service.js';
import { authorize, redeemCode } from './oauth-code.js';

export interface OAuthRoutesOptions {
  db: Db;
  jwtSecret: string;
}

/** An OAuth client id or authorization code (both short text). */
const OAUTH_ID = { type: 'string', minLength: 1, maxLength: 255 } as const;

const authorizeSchema = objectOf({ client_id: OAUTH_ID, response_type: SHORT_CODE }, ['client_id', 'response_type']);

const tokenSchema = objectOf(
  { grant_type: SHORT_CODE, code: OAUTH_ID, client_id: OAUTH_ID, redirect_uri: URL_INPUT },
  ['grant_type', 'code', 'client_id'],
);

/**
 * OAuth login (spec 1 §2 `/login/oauth/{clientId}`, §7): the authorization-code grant, kept
 * minimal. The dashboard's consent page calls `POST /oauth/authorize {client_id,
 * response_type: 'code'}` as the signed-in user and sends the browser to the application's
 * registered redirect_uri with `code` and `state`; the application exchanges the code at
 * `POST /oauth/token` (JSON or form body) for a session token of the user. Applications
 * have no client secret yet: a code is bound to the client and its redirect_uri, single use
 * and valid for 5 minutes.
 */
export async function oauthRoutes(app: FastifyInstance, { db, jwtSecret }: OAuthRoutesOptions): Promise<void> {
  // Codes are dated by the app's clock (tests move it).
  const now = app.context.clock;
  app.post<{ Body: { client_id: string; response_type: string } }>(
    '/oauth/authorize',
    { schema: { body: authorizeSchema } },
    async (request) => {
      const actor = requireUser(request);
      if (request.body.response_type !== 'code') throw new BadRequestError('unsupported_response_type');
      const { code, redirectUri } = await authorize(db, actor.userId, request.body.client_id, now());
      return { code, redirect_uri: redirectUri };
    },
  );

  // Token requests are form-encoded in RFC 6749; JSON works too.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  app.post<{ Body: { grant_type: string; code: string; client_id: string; redirect_uri?: string } }>(
    '/oauth/token',
    { schema: { body: tokenSchema }, config: { noStore: true } },
    async (request, reply) => {
      if (request.body.grant_type !== 'authorization_code') throw new BadRequestError('unsupported_grant_type');
      const { userId } = await redeemCode(
        db,
        { code: request.body.code, clientId: request.body.client_id, redirectUri: request.body.redirect_uri },
        now(),
      );
      // authTime 0: the application acts for the user, but sensitive actions (recent-auth.ts)
      // still need the user's own password. The consent came from a fully signed-in session,
      // so the second factor counts as passed.
      const accessToken = await issueSessionToken(db, jwtSecret, userId, 0, userId, false);
      reply.header('Cache-Control', 'no-store');
      return { access_token: accessToken, token_type: 'Bearer', expires_in: SESSION_TOKEN_LIFETIME_SECONDS };
    },
  );
}
