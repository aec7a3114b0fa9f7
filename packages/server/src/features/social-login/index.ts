import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { OidcProviders } from './oidc-client.js';
import { socialLoginRoutes } from './social-login.routes.js';

/** Social login through OpenID Connect (issue 20 item 3): sign-in, link and unlink. */
export async function setup(app: FastifyInstance, _rules: Rules): Promise<void> {
  const { config } = app.context;
  const providers = new OidcProviders(config.socialLogin?.providers ?? [], config.socialLogin?.timeoutMs);
  await app.register(socialLoginRoutes, { providers, jwtSecret: config.jwtSecret });
}
