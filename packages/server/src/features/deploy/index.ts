import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { CONTRACT_FETCH_TIMEOUT_MS } from './deploy-contract.service.js';
import { deployRoutes } from './deploy.routes.js';

/** "Deploy with balena" from a repository's balena.yml. */
export async function setup(app: FastifyInstance, _rules: Rules): Promise<void> {
  const { codeHost } = app.context.config;
  await app.register(deployRoutes, {
    codeHostUrl: codeHost?.codeHostUrl ?? 'https://github.com',
    rawUrl: codeHost?.rawUrl ?? 'https://raw.githubusercontent.com',
    timeoutMs: codeHost?.timeoutMs ?? CONTRACT_FETCH_TIMEOUT_MS,
  });
}
