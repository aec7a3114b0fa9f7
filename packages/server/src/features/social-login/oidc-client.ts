import * as oidc from 'openid-client';
import { isLoopbackUrl, type OidcProviderSetting } from '../../infra/config/config.js';
import { BadGatewayError, BadRequestError, GatewayTimeoutError, NotFoundError } from '../../infra/errors.js';

export const DEFAULT_OIDC_TIMEOUT_MS = 5000;

/** What the provider says about the person, from the verified ID token. */
export interface RemoteIdentity {
  /** The provider's stable subject identifier (`sub`). */
  remoteId: string;
  /** The e-mail address, only when the provider marks it verified (`email_verified: true`). */
  verifiedEmail: string | undefined;
  displayName: string | null;
}

/**
 * The configured providers of one app, each discovered lazily (its discovery document is read
 * at the first sign-in, with a timeout, and kept; a failed discovery is not kept, so the next
 * attempt tries again).
 */
export class OidcProviders {
  private readonly configs = new Map<string, Promise<oidc.Configuration>>();

  constructor(
    readonly settings: readonly OidcProviderSetting[],
    private readonly timeoutMs: number = DEFAULT_OIDC_TIMEOUT_MS,
  ) {}

  /** The configured provider named by a URL segment, or 404. */
  setting(id: string): OidcProviderSetting {
    const found = this.settings.find((p) => p.id === id);
    if (!found) throw new NotFoundError(`Unknown sign-in provider: ${id}`);
    return found;
  }

  private configuration(setting: OidcProviderSetting): Promise<oidc.Configuration> {
    let pending = this.configs.get(setting.id);
    if (!pending) {
      pending = discover(setting, this.timeoutMs);
      this.configs.set(setting.id, pending);
      pending.catch(() => this.configs.delete(setting.id));
    }
    return pending;
  }

  /** The provider's authorization URL for a new flow (PKCE S256, state and nonce). */
  async authorizationUrl(setting: OidcProviderSetting, redirectUri: string, checks: { state: string; nonce: string; codeVerifier: string }): Promise<URL> {
    const config = await this.configuration(setting);
    return oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: setting.scopes,
      response_type: 'code',
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
    });
  }

  /**
   * Exchanges the code of the provider's answer (the callback URL with its query) for the ID
   * token, checking state, nonce, PKCE verifier, issuer, audience and signature.
   */
  async identify(
    setting: OidcProviderSetting,
    callbackUrl: URL,
    checks: { state: string; nonce: string; codeVerifier: string },
  ): Promise<RemoteIdentity> {
    const config = await this.configuration(setting);
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        pkceCodeVerifier: checks.codeVerifier,
        idTokenExpected: true,
      });
    } catch (err) {
      throw providerError(setting, err);
    }
    const idToken = tokens.claims();
    if (!idToken) throw new BadGatewayError(`${setting.name} sent no ID token`);
    let claims: Record<string, unknown> = idToken;
    // Many providers put e-mail and name in the UserInfo answer only (OIDC Core §5.4, when an
    // access token is issued): asked there, for the same subject, when the ID token lacks them.
    if ((claims.email === undefined || claims.name === undefined) && tokens.access_token) {
      try {
        claims = { ...(await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub)), ...claims };
      } catch (err) {
        throw providerError(setting, err);
      }
    }
    const email = typeof claims.email === 'string' && claims.email_verified === true ? claims.email : undefined;
    const name = [claims.name, claims.preferred_username, claims.email].find((v): v is string => typeof v === 'string' && v.trim() !== '');
    return { remoteId: idToken.sub, verifiedEmail: email, displayName: name ? name.trim().slice(0, 255) : null };
  }
}

async function discover(setting: OidcProviderSetting, timeoutMs: number): Promise<oidc.Configuration> {
  const issuer = new URL(setting.issuer);
  try {
    return await oidc.discovery(issuer, setting.clientId, undefined, oidc.ClientSecretPost(setting.clientSecret), {
      // openid-client counts in seconds; the same timeout then applies to every later call.
      timeout: Math.max(1, Math.ceil(timeoutMs / 1000)),
      ...(issuer.protocol === 'http:' && isLoopbackUrl(issuer) ? { execute: [oidc.allowInsecureRequests] } : {}),
    });
  } catch (err) {
    if (isTimeout(err)) throw new GatewayTimeoutError(`${setting.name} did not answer in time. Try again later.`);
    throw new BadGatewayError(`${setting.name} cannot be reached. Try again later.`);
  }
}

/** The errors along an error's `cause` chain (openid-client wraps fetch's). */
function causes(err: unknown): unknown[] {
  const out: unknown[] = [];
  for (let e = err; e !== undefined && e !== null && out.length < 5; e = (e as { cause?: unknown }).cause) out.push(e);
  return out;
}

function isTimeout(err: unknown): boolean {
  return causes(err).some((e) => (e as { name?: string }).name === 'TimeoutError');
}

/** fetch failed: no connection (refused, unknown host, reset). */
function isNetworkFailure(err: unknown): boolean {
  return causes(err).some((e) => e instanceof TypeError && /fetch failed/i.test(e.message));
}

/**
 * The provider refused the answer (an error in the redirect, a code it does not know or a
 * verifier that does not match, a nonce or signature that does not check): the caller's
 * sign-in failed, 400. The provider unreachable: 502/504.
 */
function providerError(setting: OidcProviderSetting, err: unknown): Error {
  if (err instanceof oidc.AuthorizationResponseError) {
    return new BadRequestError(`Sign-in with ${setting.name} was not completed: ${err.error}`);
  }
  if (err instanceof oidc.ResponseBodyError) {
    return new BadRequestError(`Sign-in with ${setting.name} failed: ${err.error}`);
  }
  if (isTimeout(err)) return new GatewayTimeoutError(`${setting.name} did not answer in time. Try again later.`);
  if (isNetworkFailure(err)) {
    return new BadGatewayError(`${setting.name} cannot be reached. Try again later.`);
  }
  // A check of the response failed (nonce, issuer, audience, signature, state).
  return new BadRequestError(`Sign-in with ${setting.name} failed: the provider's answer did not check out`);
}
