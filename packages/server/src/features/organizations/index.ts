import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { organizationLogoRoutes } from './organization-logo.routes.js';
import { registerOrganizationRules } from './organization.hooks.js';

/** Organizations: handle, creator and last-administrator rules; the logo upload. */
export async function setup(app: FastifyInstance, rules: Rules): Promise<void> {
  registerOrganizationRules(rules);
  await app.register(organizationLogoRoutes, { db: app.context.db });
}
