import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

// Issue 20: the social sign-in providers (FLOTILLA_OIDC_PROVIDERS, docs/social-login.md).
const google = { id: 'google', name: 'Google', issuer: 'https://accounts.google.com', clientId: 'abc.apps.googleusercontent.com', clientSecret: 's3cret' };
const load = (providers: unknown) => loadConfig({ FLOTILLA_OIDC_PROVIDERS: JSON.stringify(providers) });

describe('FLOTILLA_OIDC_PROVIDERS', () => {
  it('is an empty list by default, with a 5 s timeout', () => {
    const c = loadConfig({});
    expect(c.FLOTILLA_OIDC_PROVIDERS).toEqual([]);
    expect(c.FLOTILLA_OIDC_TIMEOUT_MS).toBe(5000);
  });

  it('reads providers, scopes defaulting to openid email profile', () => {
    expect(load([google, { ...google, id: 'local', name: 'Local', issuer: 'http://127.0.0.1:9000/realms/x', scopes: 'openid email' }]).FLOTILLA_OIDC_PROVIDERS).toEqual([
      { ...google, scopes: 'openid email profile' },
      { ...google, id: 'local', name: 'Local', issuer: 'http://127.0.0.1:9000/realms/x', scopes: 'openid email' },
    ]);
  });

  it.each([
    ['not JSON', 'google', /JSON array/],
    ['an id with capitals', [{ ...google, id: 'Google' }], /lowercase letters/],
    ['a reserved id', [{ ...google, id: 'saml' }], /lowercase letters.*saml/],
    ['the same id twice', [google, google], /used twice/],
    ['a plain http issuer elsewhere than localhost', [{ ...google, issuer: 'http://accounts.example.com' }], /https URL/],
    ['no client secret', [{ ...google, clientSecret: '' }], /clientSecret/],
    ['scopes without openid', [{ ...google, scopes: 'email profile' }], /openid/],
  ])('refuses %s', (_what, value, message) => {
    const run = () => loadConfig({ FLOTILLA_OIDC_PROVIDERS: typeof value === 'string' ? value : JSON.stringify(value) });
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(message);
  });
});
