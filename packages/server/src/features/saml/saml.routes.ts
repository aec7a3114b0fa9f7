import type { FastifyInstance } from 'fastify';
import type { Db } from '../../infra/db/db.js';
import { UnauthorizedError } from '../../infra/errors.js';
import { requireSamlEnabled } from '../identity-providers/index.js';
import { objectOf } from '../../infra/http/schemas.js';
import { issueSessionToken } from '../../infra/auth/session.service.js';
import { SAML_RESPONSE_MAX_LENGTH } from './saml-response-checks.js';
import { authorizeUrl, consumeResponse, finalize, serviceProviderMetadata } from './saml-sign-in.js';

export interface SamlRoutesOptions {
  db: Db;
  jwtSecret: string;
  /** The server's public URL (FLOTILLA_PUBLIC_URL): our entity ids and ACS URLs derive from it. */
  publicUrl: string;
}

/** An SSO identifier in a path (the identity_provider column bounds it; the lookup decides). */
const SSO_PARAMS = objectOf({ ssoIdentifier: { type: 'string', minLength: 1, maxLength: 255 } }, ['ssoIdentifier']);

const acsSchema = objectOf(
  { SAMLResponse: { type: 'string', minLength: 1, maxLength: SAML_RESPONSE_MAX_LENGTH }, RelayState: { type: 'string', maxLength: 1024 } },
  ['SAMLResponse'],
);

const finalizeSchema = objectOf({ code: { type: 'string', minLength: 1, maxLength: 255 }, jwt: { type: 'string', maxLength: 8192 } }, ['code']);

export { SAML_OFF_MESSAGE as SAML_OFF } from '../identity-providers/index.js';

/** The dashboard's callback pages (spec 1 §2): a failed sign-in arrives without a code. */
export const SIGNON_PAGE = '/saml/callback/signon';
export const MERGE_PAGE = '/saml/callback/merge';

/**
 * SAML sign-in (spec 1 §2 `/saml*`, §7, issue 20 item 2), with node-saml:
 * - `GET /auth/saml/{ssoIdentifier}`: 302 to the provider's entry point with a new
 *   AuthnRequest (remembered for InResponseTo); an unknown identifier is 404.
 * - `POST /auth/saml/{ssoIdentifier}/callback`: the assertion consumer service (the
 *   provider's form post); 303 to `/saml/callback/signon?code=…`,
 *   `/saml/callback/merge?code=…&shouldMergeWith=…`, or `/saml/callback/signon` without a
 *   code when the response is refused (the reason is logged, never shown).
 * - `POST /auth/saml/finalize {code, jwt}`: the session token (text).
 * - `GET /auth/saml/{ssoIdentifier}/metadata`: our service provider's metadata for that
 *   provider (entity id and ACS URL, for the identity provider's administrator).
 */
export async function samlRoutes(app: FastifyInstance, { db, jwtSecret, publicUrl }: SamlRoutesOptions): Promise<void> {
  const now = app.context.clock;
  // FLOTILLA_SAML=off: every SAML route answers 404.
  app.addHook('onRequest', async () => requireSamlEnabled(app));

  app.get<{ Params: { ssoIdentifier: string } }>(
    '/auth/saml/:ssoIdentifier',
    { schema: { params: SSO_PARAMS }, config: { noStore: true } },
    async (request, reply) => {
      const url = await authorizeUrl(db, request.params.ssoIdentifier, publicUrl, now);
      return reply.redirect(url, 302);
    },
  );

  app.get<{ Params: { ssoIdentifier: string } }>('/auth/saml/:ssoIdentifier/metadata', { schema: { params: SSO_PARAMS } }, async (request, reply) => {
    const xml = await serviceProviderMetadata(db, request.params.ssoIdentifier, publicUrl);
    return reply.type('application/samlmetadata+xml').send(xml);
  });

  // The provider posts the response as an HTML form (HTTP-POST binding).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: SAML_RESPONSE_MAX_LENGTH * 2 }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  app.post<{ Params: { ssoIdentifier: string }; Body: { SAMLResponse: string; RelayState?: string } }>(
    '/auth/saml/:ssoIdentifier/callback',
    { schema: { params: SSO_PARAMS, body: acsSchema }, config: { noStore: true }, bodyLimit: SAML_RESPONSE_MAX_LENGTH * 2 },
    async (request, reply) => {
      const outcome = await consumeResponse(db, { ssoIdentifier: request.params.ssoIdentifier, samlResponse: request.body.SAMLResponse, publicUrl }, now);
      if (outcome.kind === 'failed') {
        request.log.warn({ ssoIdentifier: request.params.ssoIdentifier, reason: outcome.reason }, 'SAML response refused');
        return reply.redirect(SIGNON_PAGE, 303);
      }
      if (outcome.kind === 'merge') {
        return reply.redirect(`${MERGE_PAGE}?${new URLSearchParams({ code: outcome.code, shouldMergeWith: outcome.email })}`, 303);
      }
      return reply.redirect(`${SIGNON_PAGE}?${new URLSearchParams({ code: outcome.code })}`, 303);
    },
  );

  app.post<{ Body: { code: string; jwt?: string } }>(
    '/auth/saml/finalize',
    { schema: { body: finalizeSchema }, config: { noStore: true } },
    async (request, reply) => {
      let jwtUserId: number | null = null;
      if (request.body.jwt) {
        const actor = await app.authenticator.fromJwt(request.body.jwt);
        // A session still waiting for its second factor proves nothing yet.
        if (actor.claims?.twoFactorRequired === true) throw new UnauthorizedError('Two-factor authentication required');
        jwtUserId = actor.userId ?? null;
      }
      const userId = await finalize(db, { code: request.body.code, jwtUserId }, now);
      reply.type('text/plain');
      return issueSessionToken(db, jwtSecret, userId);
    },
  );
}
