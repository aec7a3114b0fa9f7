import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { twoFactorRoutes } from './two-factor.routes.js';

// main.ts seals secrets stored in plain text by older versions at start-up.
export { sealPlaintextTwoFactorSecrets } from './two-factor.service.js';

/** Two-factor authentication (TOTP on the app's clock, recovery codes). */
export async function setup(app: FastifyInstance, _rules: Rules): Promise<void> {
  const { db, config, secrets } = app.context;
  await app.register(twoFactorRoutes, { db, jwtSecret: config.jwtSecret, secrets });
}
