import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { defaultAgentDir } from './agent-bundle.js';
import { provisioningRoutes } from './provisioning.routes.js';
import { publicConfigRoutes } from './public-config.routes.js';

/** Adding a device: the agent download and its installer, and balena's public `/config`. */
export async function setup(app: FastifyInstance, _rules: Rules): Promise<void> {
  await app.register(publicConfigRoutes, { publicUrl: app.context.mailer.publicUrl });
  await app.register(provisioningRoutes, { agentDir: defaultAgentDir });
}
