import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { eligibleOrganizationsRoutes } from './eligible-organizations.routes.js';
import { registerIdentityProviderRules } from './identity-provider.hooks.js';

export { requireSamlEnabled, samlEnabled, SAML_OFF_MESSAGE } from './saml-enabled.js';

/**
 * Identity providers (issue 20, spec 1 §3–§8): who administers them, their validation, their
 * memberships and SAML accounts through /v7, and the organizations a user may set one up for.
 */
export async function setup(app: FastifyInstance, rules: Rules): Promise<void> {
  registerIdentityProviderRules(rules);
  await app.register(eligibleOrganizationsRoutes);
}
