import type { FastifyInstance } from 'fastify';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import { generateApiKey, hashApiKey } from '../../infra/auth/api-keys.js';
import { requireRecentAuth } from '../auth/recent-auth.js';
import { provisioningKeyRoutes } from './provisioning-key.routes.js';

const userKeySchema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', maxLength: 255 },
    description: { type: ['string', 'null'], maxLength: 10000 },
    expiryDate: { type: ['string', 'null'], maxLength: 64 },
  },
} as const;

/** Parses an optional expiry; a date in the past is refused (spec 1 §5: no earlier than now). */
export function parseExpiry(value: string | null | undefined): Date | null {
  if (value === null || value === undefined) return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new BadRequestError('expiryDate must be an ISO 8601 date or null');
  if (date.getTime() <= Date.now()) throw new BadRequestError('expiryDate must be in the future');
  return date;
}

export async function apiKeyRoutes(app: FastifyInstance, { db }: { db: Db }): Promise<void> {
  // A named user API key; the key is answered once as a JSON string and only its hash is kept.
  app.post<{ Body: { name: string; description?: string | null; expiryDate?: string | null } }>(
    '/api-key/user/full',
    { schema: { body: userKeySchema }, config: { noStore: true } },
    async (request, reply) => {
      // Spec 1 §4: creating a user API key is a sensitive action (authTime within 20 minutes).
      const actor = requireRecentAuth(request);
      const name = request.body.name.trim();
      if (!name) throw new BadRequestError('API keys must have a name');
      const expiry = parseExpiry(request.body.expiryDate);
      const key = generateApiKey();
      await db.query(
        'INSERT INTO api_key (key, name, description, expiry_date, is_of__actor) VALUES ($1, $2, $3, $4, $5)',
        [hashApiKey(key), name, request.body.description ?? null, expiry, actor.actorId],
      );
      return reply.type('application/json').send(JSON.stringify(key));
    },
  );

  await provisioningKeyRoutes(app, { db });
}
