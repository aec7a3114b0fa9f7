import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { samlRoutes } from './saml.routes.js';

export { hasSamlAccount, isSamlOnlyUser } from './saml.repository.js';

/** Refused to a user with a SAML account (spec 1 §6): they sign in through their identity provider. */
export const SAML_NO_API_KEYS = 'Creating API keys is not supported for SAML accounts';
export const SAML_NO_PASSWORD = 'This account signs in with its identity provider (SAML single sign-on) and has no password';

/** SAML single sign-on (issue 20 item 2): sign-in through an identity provider, just-in-time accounts. */
export async function setup(app: FastifyInstance, _rules: Rules): Promise<void> {
  const { db, config, mailer } = app.context;
  await app.register(samlRoutes, { db, jwtSecret: config.jwtSecret, publicUrl: mailer.publicUrl });
}
