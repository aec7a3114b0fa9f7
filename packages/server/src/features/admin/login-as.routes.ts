import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../infra/db/db.js';
import { ForbiddenError, UnauthorizedError } from '../../infra/errors.js';
import type { Actor } from '../../infra/http/actor.js';
import { requireUser } from '../../infra/http/guards.js';
import { loginAs } from './login-as.service.js';

export interface AdminRoutesOptions {
  db: Db;
  jwtSecret: string;
}

// `username` is checked in the service so a blank one gets a plain message, and only
// after the caller is known to be an administrator (others learn nothing from a 400).
const loginAsSchema = {
  body: {
    type: 'object',
    properties: { username: { type: 'string', maxLength: 255 } },
  },
} as const;

/** Only platform administrators (permission `admin.home`, from the user's platform role). */
function requirePlatformAdministrator(request: FastifyRequest): Actor & { userId: number } {
  const actor = requireUser(request);
  // A token still waiting for its second factor has not proven who holds it.
  if (actor.claims?.twoFactorRequired === true) throw new UnauthorizedError('Two-factor authentication is required');
  if (!actor.permissions.includes('admin.home')) {
    throw new ForbiddenError('Only platform administrators may log in as another user');
  }
  return actor;
}

export async function adminRoutes(app: FastifyInstance, { db, jwtSecret }: AdminRoutesOptions): Promise<void> {
  // PATCH /login_ {username}: admin login-as (spec 1 §7); answers the JWT as text like POST /login_.
  app.patch<{ Body: { username?: string } | undefined }>(
    '/login_',
    {
      schema: loginAsSchema,
      config: { noStore: true },
      // Authorise before the body is validated: anonymous callers get 401, others 403.
      preValidation: async (request) => {
        requirePlatformAdministrator(request);
      },
    },
    async (request, reply) => {
      const admin = requirePlatformAdministrator(request);
      const { token, user } = await loginAs(db, jwtSecret, admin.userId, request.body?.username ?? '');
      request.log.info(
        { administratorId: admin.userId, userId: user.id, username: user.username },
        `platform administrator ${admin.userId} logged in as user ${user.id} (${user.username})`,
      );
      reply.type('text/plain');
      return token;
    },
  );
}
