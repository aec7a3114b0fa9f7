import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { agentBundleSource, defaultAgentDir, type ServedBundle } from './agent-bundle.js';
import { provisioningRoutes } from './provisioning.routes.js';
import { publicConfigRoutes } from './public-config.routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The server's own agent bundle (built from packages/agent at the first call, kept in
     * memory, gzipped once): `GET /download/agent`, and the build of the supervisor release of
     * the server's agent version (features/agent-releases).
     */
    agentBundle: () => Promise<ServedBundle>;
  }
}

/** Adding a device: the agent download and its installer, and balena's public `/config`. */
export async function setup(app: FastifyInstance, _rules: Rules): Promise<void> {
  await app.register(publicConfigRoutes, { publicUrl: app.context.mailer.publicUrl });
  app.decorate('agentBundle', agentBundleSource(defaultAgentDir));
  await app.register(provisioningRoutes);
}
