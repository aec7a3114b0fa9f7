import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { registerApiKeyRules } from './api-key.hooks.js';
import { apiKeyRoutes } from './api-key.routes.js';
import { downloadConfigRoutes } from './download-config.routes.js';
import { provisioningKeyRoutes } from './provisioning-key.routes.js';

/** Named user API keys, provisioning keys and the config.json that carries one to a new device. */
export async function setup(app: FastifyInstance, rules: Rules): Promise<void> {
  registerApiKeyRules(rules);
  await app.register(apiKeyRoutes, { db: app.context.db });
  await app.register(provisioningKeyRoutes, { db: app.context.db });
  await app.register(downloadConfigRoutes, { db: app.context.db });
}
