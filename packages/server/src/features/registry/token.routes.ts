import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../../infra/http/actor.js';
import { odataRead } from '../../infra/odata/index.js';
import { HttpError } from '../../infra/errors.js';
import { grantAccess, MAX_SCOPES, subjectOf, type BeforePush } from './access.js';
import { OciError } from './oci-errors.js';
import { parseScopes, type TokenSigner } from './token.js';

/**
 * `GET /auth/v1/token?service=…&scope=repository:<name>:pull,push` (the Docker token
 * protocol; balena's path). Basic credentials: a user's username (or anything) with a session
 * token or API key as password; a device `d_<uuid>` with its device API key, as a balena
 * supervisor sends. They are checked by the app's one Authenticator. No credentials: a
 * token with no grants. Bad credentials: 401.
 */

const TOKEN_QUERY = {
  type: 'object',
  properties: {
    service: { type: 'string', maxLength: 255 },
    scope: { anyOf: [{ type: 'string', maxLength: 2000 }, { type: 'array', maxItems: MAX_SCOPES, items: { type: 'string', maxLength: 2000 } }] },
    account: { type: 'string', maxLength: 255 },
    client_id: { type: 'string', maxLength: 255 },
    offline_token: { type: 'string', maxLength: 10 },
  },
} as const;

const unauthorized = (message: string) => new OciError(401, 'UNAUTHORIZED', message, null, { 'www-authenticate': 'Basic realm="flotilla"' });

async function basicActor(request: FastifyRequest): Promise<{ username: string; actor: Actor | null }> {
  const header = request.headers.authorization;
  if (header === undefined) return { username: '', actor: null };
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!m) throw unauthorized('Basic credentials expected');
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw unauthorized('Basic credentials expected');
  const username = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  if (password === '' || password.length > 4096) throw unauthorized('invalid credentials');
  const { authenticator, db } = request.server.context;
  let actor: Actor;
  try {
    if (/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(password)) {
      actor = await authenticator.fromJwt(password);
      if (actor.claims?.twoFactorRequired === true) throw unauthorized('the two-factor check of this session is pending');
    } else {
      actor = await authenticator.fromApiKey(password);
    }
  } catch (err) {
    if (err instanceof OciError) throw err;
    throw unauthorized('invalid credentials');
  }
  // A device names itself `d_<uuid>`: the key must be that device's.
  if (username.startsWith('d_')) {
    const uuid = username.slice(2);
    const own =
      actor.kind === 'device' &&
      /^[0-9a-f]{1,62}$/.test(uuid) &&
      (await odataRead(db, { actorId: actor.actorId, permissions: actor.permissions }, `/device?$select=id&$filter=id eq ${actor.deviceId} and uuid eq '${uuid}'`)).length > 0;
    if (!own) throw unauthorized('invalid credentials');
  }
  return { username, actor };
}

/**
 * `beforePush` refuses a push (or delete) scope with an HTTP error (billing: 402 for a frozen
 * organization). The whole token request then answers that status with the message in the
 * registry's error format, which Docker prints as `denied: <message>`; pull-only requests
 * (devices, `docker pull`) are not affected.
 */
export function tokenRoutes(app: FastifyInstance, signer: TokenSigner, beforePush?: BeforePush): void {
  app.get<{ Querystring: { service?: string; scope?: string | string[] } }>(
    '/auth/v1/token',
    { schema: { querystring: TOKEN_QUERY }, config: { handlesAuthError: true } },
    async (request, reply) => {
      try {
        const { service, scope } = request.query;
        if (service !== undefined && service !== signer.service) {
          throw new OciError(400, 'DENIED', `this server issues tokens for service ${signer.service}`, { service });
        }
        const { username, actor } = await basicActor(request);
        const requested = parseScopes(scope === undefined ? [] : Array.isArray(scope) ? scope : [scope]);
        const refusingPush: BeforePush | undefined = beforePush
          ? async (imageId) => {
              try {
                await beforePush(imageId);
              } catch (err) {
                if (err instanceof HttpError && err.statusCode < 500) throw new OciError(err.statusCode, 'DENIED', err.message, null);
                throw err;
              }
            }
          : undefined;
        const access = await grantAccess(request.server.context.db, actor, requested, refusingPush);
        const sub = actor === null ? '' : actor.kind === 'user' && username !== '' ? username : username || `actor_${actor.actorId}`;
        const { token, issuedAt, expiresIn } = await signer.sign({ sub, access, ...(actor ? { flotilla: subjectOf(actor) } : {}) });
        return reply.header('cache-control', 'no-store').send({ token, access_token: token, expires_in: expiresIn, issued_at: issuedAt.toISOString() });
      } catch (err) {
        if (!(err instanceof OciError)) throw err;
        reply.headers(err.headers);
        return reply.code(err.statusCode).type('application/json').send(err.body());
      }
    },
  );
}
