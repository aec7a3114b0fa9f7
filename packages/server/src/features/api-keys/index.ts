import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { assertNotFrozen } from '../billing/index.js';
import { registerApiKeyRules } from './api-key.hooks.js';
import { apiKeyRoutes } from './api-key.routes.js';
import { downloadConfigRoutes } from './download-config.routes.js';
import { provisioningKeyRoutes } from './provisioning-key.routes.js';

/** Named user API keys, provisioning keys and the config.json that carries one to a new device. */
export async function setup(app: FastifyInstance, rules: Rules): Promise<void> {
  registerApiKeyRules(rules);
  await app.register(apiKeyRoutes, { db: app.context.db });
  // A frozen organization's fleets get no new provisioning keys (issue 18), checked once the caller may make one.
  const beforeCreate = (applicationId: number) => assertNotFrozen(app, app.context.db, { applications: [applicationId] });
  await app.register(provisioningKeyRoutes, { db: app.context.db, beforeCreate });
  await app.register(downloadConfigRoutes, { db: app.context.db, beforeCreate });
}
