import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as oidc from 'openid-client';
import { alphanumericSecret } from '../../infra/auth/secret.js';
import { issueSessionToken } from '../../infra/auth/session.service.js';
import { BadRequestError, ConflictError, HttpError, NotFoundError } from '../../infra/errors.js';
import { requireUser } from '../../infra/http/guards.js';
import { EMPTY_BODY, ID_PARAMS, objectOf } from '../../infra/http/schemas.js';
import { publicLink } from '../../infra/mail/mailer.js';
import { billingEnabled, ensureSubscription } from '../billing/index.js';
import { createUser } from '../users/index.js';
import type { OidcProviders, RemoteIdentity } from './oidc-client.js';
import {
  countSamlAccounts,
  deleteSocialAccount,
  findSocialAccount,
  findUserIdByEmail,
  findUserSocialAccounts,
  insertLinkIntent,
  insertLoginState,
  insertSocialAccount,
  lockUser,
  takeLinkIntent,
  takeLoginState,
  updateSocialDisplayName,
} from './social-login.repository.js';

/** A sign-in or link flow must come back from the provider within this time. */
export const SOCIAL_STATE_LIFETIME_MS = 10 * 60 * 1000;
/** A link intent (POST /auth/{provider}/link) must be followed within this time. */
export const LINK_INTENT_LIFETIME_MS = 2 * 60 * 1000;
/** The httpOnly cookie binding a flow to the browser that began it (against login CSRF). */
export const BROWSER_COOKIE = 'flotilla_social';

export const INVALID_STATE = 'This sign-in has expired or was already used. Start again.';
export const LAST_WAY_TO_SIGN_IN = 'This is the last way to sign in to your account. Set a password first, then unlink it.';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

const PROVIDER_PARAMS = objectOf({ provider: { type: 'string', minLength: 1, maxLength: 32 } }, ['provider']);

const callbackResponse = {
  200: {
    type: 'object',
    required: ['action'],
    properties: { action: { type: 'string', enum: ['signed-in', 'linked'] }, token: { type: 'string' }, provider: { type: 'string' } },
  },
} as const;

/** A cookie of the request (the Cookie header), when present and well formed. */
function cookieValue(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) {
      const value = rest.join('=');
      return /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

function sameHash(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

function wantsHtml(request: FastifyRequest): boolean {
  return request.headers.accept?.includes('text/html') ?? false;
}

/**
 * Social login through OpenID Connect (spec 1 §2 `/auth/{provider}/callback`, §7; issue 20
 * item 3; docs/social-login.md):
 * - `GET /auth/{provider}[?link=…]`: the browser is sent to the provider with PKCE (S256),
 *   state and nonce; the flow is kept in social_login_state and bound to the browser by an
 *   httpOnly cookie.
 * - The provider sends the browser back to `/auth/{provider}/callback?code&state`: a
 *   navigation there (Accept: text/html) gets the dashboard (features/web), whose page calls
 *   the same URL with fetch (credentials: the cookie); that call is answered here.
 * - `POST /auth/{provider}/link` (signed in): a link intent for the next navigation.
 * - `DELETE /user/v1/social-accounts/{id}`: unlink one of the caller's accounts.
 */
export async function socialLoginRoutes(app: FastifyInstance, { providers, jwtSecret }: { providers: OidcProviders; jwtSecret: string }): Promise<void> {
  const { db, mailer } = app.context;
  const now = () => new Date(app.context.clock());
  const secureCookie = new URL(mailer.publicUrl).protocol === 'https:';
  const redirectUri = (id: string) => publicLink(mailer.publicUrl, `/auth/${id}/callback`);
  /** A path of this server, with FLOTILLA_PUBLIC_URL's path prefix. */
  const localPath = (path: string) => {
    const url = new URL(publicLink(mailer.publicUrl, path));
    return `${url.pathname}${url.search}`;
  };

  // A browser navigation to the callback (the provider's redirect) is the dashboard's page
  // (features/web answers it); the page's own fetch of the same URL is the API's.
  if (!app.hasConstraintStrategy('navigation')) {
    app.addConstraintStrategy({
      name: 'navigation',
      storage() {
        const handlers = new Map<string, unknown>();
        return { get: (key: string) => (handlers.get(key) ?? null) as never, set: (key: string, value: unknown) => void handlers.set(key, value) };
      },
      deriveConstraint: (req: { headers: Record<string, string | string[] | undefined> }) => {
        const accept = req.headers.accept;
        return (typeof accept === 'string' ? accept : '').includes('text/html') ? 'page' : 'api';
      },
      mustMatchWhenDerived: false,
    });
  }

  app.get<{ Params: { provider: string }; Querystring: { link?: string } }>(
    '/auth/:provider',
    {
      schema: { params: PROVIDER_PARAMS, querystring: objectOf({ link: { type: 'string', maxLength: 100 } }) },
      config: { noStore: true },
    },
    async (request, reply) => {
      const { provider: id } = request.params;
      const link = request.query.link;
      try {
        const setting = providers.setting(id);
        let linkUser: number | null = null;
        if (link !== undefined) {
          const user = await takeLinkIntent(db, sha256(link), id, now());
          if (user === undefined) throw new BadRequestError('This link request has expired. Start again from your preferences.');
          linkUser = user;
        }
        const state = oidc.randomState();
        const nonce = oidc.randomNonce();
        const codeVerifier = oidc.randomPKCECodeVerifier();
        // Discovery first: an unreachable provider stores nothing.
        const url = await providers.authorizationUrl(setting, redirectUri(id), { state, nonce, codeVerifier });
        const browser = cookieValue(request, BROWSER_COOKIE) ?? randomBytes(32).toString('base64url');
        await insertLoginState(
          db,
          {
            stateHash: sha256(state),
            provider: id,
            nonce,
            codeVerifier,
            browserHash: sha256(browser),
            linkUser,
            expiresAt: new Date(now().getTime() + SOCIAL_STATE_LIFETIME_MS),
          },
          now(),
        );
        const maxAge = Math.floor(SOCIAL_STATE_LIFETIME_MS / 1000);
        reply.header('Set-Cookie', `${BROWSER_COOKIE}=${browser}; Path=/auth; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secureCookie ? '; Secure' : ''}`);
        return reply.redirect(url.href, 302);
      } catch (err) {
        // A person clicked a button: back to the page they came from, with the reason.
        if (!wantsHtml(request) || !(err instanceof HttpError)) throw err;
        const back = link !== undefined ? '/preferences/details' : '/login';
        return reply.redirect(localPath(`${back}?social_error=${encodeURIComponent(err.message)}`), 303);
      }
    },
  );

  app.get<{ Params: { provider: string }; Querystring: { state?: string } }>(
    '/auth/:provider/callback',
    {
      constraints: { navigation: 'api' },
      schema: {
        params: PROVIDER_PARAMS,
        querystring: objectOf({
          code: { type: 'string', maxLength: 2048 },
          state: { type: 'string', maxLength: 512 },
          error: { type: 'string', maxLength: 256 },
          error_description: { type: 'string', maxLength: 1024 },
          iss: { type: 'string', maxLength: 500 },
        }),
        response: callbackResponse,
      },
      config: { noStore: true },
    },
    async (request) => {
      const { provider: id } = request.params;
      const setting = providers.setting(id);
      const query = request.url.split('?')[1] ?? '';
      if (query.length > 8192) throw new BadRequestError(INVALID_STATE);
      const state = request.query.state;
      const row = state ? await takeLoginState(db, sha256(state), id, now()) : undefined;
      const browser = cookieValue(request, BROWSER_COOKIE);
      if (!state || !row || !browser || !sameHash(sha256(browser), row.browser_hash)) throw new BadRequestError(INVALID_STATE);
      const identity = await providers.identify(setting, new URL(`${redirectUri(id)}?${query}`), {
        state,
        nonce: row.nonce,
        codeVerifier: row.code_verifier,
      });
      if (row.link_user !== null) {
        await linkAccount(row.link_user, id, setting.name, identity);
        return { action: 'linked', provider: id };
      }
      const userId = await signIn(id, setting.name, identity);
      // Two-factor on: the token is pending until the second factor (as after a password).
      return { action: 'signed-in', token: await issueSessionToken(db, jwtSecret, userId) };
    },
  );

  async function linkAccount(userId: number, provider: string, name: string, identity: RemoteIdentity): Promise<void> {
    await db.tx(async (tx) => {
      const existing = await findSocialAccount(tx, provider, identity.remoteId);
      if (existing && existing.belongs_to__user !== userId) throw new ConflictError(`This ${name} account is already linked to another user.`);
      if (existing) return updateSocialDisplayName(tx, existing.id, identity.displayName);
      const mine = await findUserSocialAccounts(tx, userId);
      if (mine.some((a) => a.provider === provider)) throw new ConflictError(`Your account is already linked to ${name}.`);
      await insertSocialAccount(tx, { userId, provider, remoteId: identity.remoteId, displayName: identity.displayName });
    });
  }

  /** The user this remote identity signs in: a known one, else a new account for its verified address. */
  async function signIn(provider: string, name: string, identity: RemoteIdentity): Promise<number> {
    try {
      return await db.tx(async (tx) => {
        const existing = await findSocialAccount(tx, provider, identity.remoteId);
        if (existing) {
          await updateSocialDisplayName(tx, existing.id, identity.displayName);
          return existing.belongs_to__user;
        }
        const email = identity.verifiedEmail;
        if (!email) throw new BadRequestError(`${name} did not share a verified e-mail address, so no account can be made with it.`);
        // Never a silent take-over: whoever controls the address at the provider is not
        // proven to be the account's owner here (decisions.md, issue 20 social login).
        if ((await findUserIdByEmail(tx, email)) !== undefined) {
          throw new ConflictError(`An account with this e-mail address already exists. Sign in with your password, then link ${name} in your preferences.`);
        }
        const created = await createUser(tx, { email, password: null, isVerified: true });
        if (billingEnabled(app)) await ensureSubscription(tx, created.organizationId, now());
        await insertSocialAccount(tx, { userId: created.id, provider, remoteId: identity.remoteId, displayName: identity.displayName });
        return created.id;
      });
    } catch (err) {
      // The same identity finishing twice at once: the other sign-in made the account.
      if ((err as { code?: string }).code === '23505') throw new ConflictError('This sign-in is already being completed. Try again.');
      throw err;
    }
  }

  app.post<{ Params: { provider: string } }>(
    '/auth/:provider/link',
    { schema: { params: PROVIDER_PARAMS, body: EMPTY_BODY }, config: { noStore: true } },
    async (request) => {
      const actor = requireUser(request);
      const setting = providers.setting(request.params.provider);
      const mine = await findUserSocialAccounts(db, actor.userId);
      if (mine.some((a) => a.provider === setting.id)) throw new ConflictError(`Your account is already linked to ${setting.name}.`);
      const token = alphanumericSecret(192);
      await insertLinkIntent(db, { tokenHash: sha256(token), provider: setting.id, userId: actor.userId, expiresAt: new Date(now().getTime() + LINK_INTENT_LIFETIME_MS) }, now());
      return { url: localPath(`/auth/${setting.id}?link=${token}`) };
    },
  );

  app.delete<{ Params: { id: number } }>('/user/v1/social-accounts/:id', { schema: { params: ID_PARAMS, body: EMPTY_BODY } }, async (request, reply) => {
    const actor = requireUser(request);
    await db.tx(async (tx) => {
      const user = await lockUser(tx, actor.userId);
      const mine = await findUserSocialAccounts(tx, actor.userId);
      const target = mine.find((a) => a.id === request.params.id);
      if (!user || !target) throw new NotFoundError('Social account not found');
      if (!user.has_password_set && mine.length === 1 && (await countSamlAccounts(tx, actor.userId)) === 0) {
        throw new BadRequestError(LAST_WAY_TO_SIGN_IN);
      }
      await deleteSocialAccount(tx, target.id);
    });
    return reply.type('text/plain').send('OK');
  });
}
