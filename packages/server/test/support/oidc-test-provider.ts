// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- oidc-provider ships no types; e2e (another tsconfig) reaches the declaration only through this reference
/// <reference path="./oidc-provider.d.ts" />
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/** A person at the test provider. */
export interface TestOidcAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface TestOidcProvider {
  /** The issuer URL (http on 127.0.0.1). */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who the next login at the provider is (the provider's login page is skipped). */
  signInAs(account: TestOidcAccount): void;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (oidc-provider v8) on an ephemeral or given port, for the
 * social-login tests: one confidential client (client_secret_post, PKCE required) whose
 * redirect URIs are given, signing ID tokens with a fresh RSA key. Its interactive login is
 * replaced by a handler that logs in whoever `signInAs` named and grants openid, email and
 * profile without a consent page, so a test (or a browser) goes straight through.
 */
export async function startOidcProvider(options: { redirectUris: string[]; port?: number; host?: string }): Promise<TestOidcProvider> {
  const clientId = 'flotilla-test';
  const clientSecret = randomBytes(24).toString('hex');
  const accounts = new Map<string, TestOidcAccount>();
  let next: TestOidcAccount | undefined;
  const server: Server = createServer();
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const issuer = `http://${host}:${(server.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...(privateKey.export({ format: 'jwk' }) as Record<string, unknown>), kid: 'test', use: 'sig', alg: 'RS256' };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    findAccount: (_ctx, sub) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: () => ({ ...account }) };
    },
    // No consent page: a grant of the client's scopes for the signed-in account.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { client, session, provider: p } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) return p.Grant.find(grantId);
      const grant = new p.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  const callback = provider.callback();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith('/interaction/')) {
      const account = next;
      if (!account) {
        res.writeHead(500).end('no test account: call signInAs first');
        return;
      }
      accounts.set(account.sub, account);
      provider.interactionFinished(req, res, { login: { accountId: account.sub } }, { mergeWithLastSubmission: false }).catch((err: unknown) => {
        res.writeHead(500).end(String(err));
      });
      return;
    }
    callback(req, res);
  });
  return {
    issuer,
    clientId,
    clientSecret,
    signInAs(account) {
      next = account;
      accounts.set(account.sub, account);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
