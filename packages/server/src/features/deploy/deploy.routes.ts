import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../infra/http/guards.js';
import { objectOf, URL_INPUT } from '../../infra/http/schemas.js';
import { fetchDeployContract, type CodeHostOptions } from './deploy-contract.service.js';

const contractSchema = {
  type: 'object',
  required: ['name', 'type'],
  properties: {
    name: { type: 'string' },
    type: { type: 'string' },
    description: { type: 'string' },
    version: { type: 'string' },
    defaultDeviceType: { type: 'string' },
    supportedDeviceTypes: { type: 'array', items: { type: 'string' } },
  },
} as const;

/**
 * `GET /deploy/v1/contract?repoUrl=…` (spec 2 §2 /deploy, §5, §9): the dashboard cannot read
 * other origins under its CSP, so the server reads the repository's balena.yml for it.
 * Signed-in users only, and only repositories on the configured code host.
 */
export async function deployRoutes(app: FastifyInstance, opts: CodeHostOptions): Promise<void> {
  app.get<{ Querystring: { repoUrl: string } }>(
    '/deploy/v1/contract',
    {
      schema: {
        querystring: objectOf({ repoUrl: { ...URL_INPUT, minLength: 1 } }, ['repoUrl']),
        response: { 200: contractSchema },
      },
    },
    async (request) => {
      requireUser(request);
      return fetchDeployContract(opts, request.query.repoUrl);
    },
  );
}
