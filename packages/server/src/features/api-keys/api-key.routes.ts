import type { FastifyInstance } from 'fastify';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import { generateApiKey, hashApiKey, parseExpiry } from '../../infra/auth/api-keys.js';
import { requireRecentAuth } from '../../infra/auth/recent-auth.js';
import { insertApiKey } from './api-keys.repository.js';
import { hasSamlAccount, SAML_NO_API_KEYS } from '../saml/index.js';

const userKeySchema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', maxLength: 255 },
    description: { type: ['string', 'null'], maxLength: 10000 },
    expiryDate: { type: ['string', 'null'], maxLength: 64 },
  },
} as const;

export async function apiKeyRoutes(app: FastifyInstance, { db }: { db: Db }): Promise<void> {
  // A named user API key; the key is answered once as a JSON string and only its hash is kept.
  app.post<{ Body: { name: string; description?: string | null; expiryDate?: string | null } }>(
    '/api-key/user/full',
    { schema: { body: userKeySchema }, config: { noStore: true } },
    async (request, reply) => {
      // Spec 1 §4: creating a user API key is a sensitive action (authTime within 20 minutes).
      const actor = requireRecentAuth(request);
      // Spec 1 §6: a user with a SAML account cannot create API keys.
      if (await hasSamlAccount(db, actor.userId)) throw new BadRequestError(SAML_NO_API_KEYS);
      const name = request.body.name.trim();
      if (!name) throw new BadRequestError('API keys must have a name');
      const expiry = parseExpiry(request.body.expiryDate);
      const key = generateApiKey();
      await insertApiKey(db, { keyHash: hashApiKey(key), name, description: request.body.description ?? null, expiry, actorId: actor.actorId });
      return reply.type('application/json').send(JSON.stringify(key));
    },
  );
}
