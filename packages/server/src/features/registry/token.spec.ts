import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../infra/config/config.js';
import { libtrustKeyId, parseScopes, TokenSigner } from './token.js';

describe('registry token scopes', () => {
  it('parses repository and catalog scopes, merging repeats and dropping unknown shapes', () => {
    expect(parseScopes(['repository:v2/abc:pull,push', 'repository:v2/abc:pull', 'registry:catalog:*', 'nonsense', 'other:x:pull'])).toEqual([
      { type: 'repository', name: 'v2/abc', actions: ['pull', 'push'] },
      { type: 'registry', name: 'catalog', actions: ['*'] },
    ]);
    // Several scopes in one parameter, space-separated (the token spec allows it).
    expect(parseScopes(['repository:a:pull repository:b:push'])).toEqual([
      { type: 'repository', name: 'a', actions: ['pull'] },
      { type: 'repository', name: 'b', actions: ['push'] },
    ]);
  });
});

describe('registry token signer', () => {
  it('signs ES256 tokens with a libtrust key id and verifies only its own, unexpired, for its service', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    let now = 1_800_000_000_000;
    const signer = new TokenSigner(privateKey, 'flotilla', 'registry.example:5000', () => now);
    expect(signer.kid).toMatch(/^([A-Z2-7]{4}:){11}[A-Z2-7]{4}$/);
    expect(signer.kid).toBe(libtrustKeyId(privateKey));
    const { token } = await signer.sign({ sub: 'alice', access: [{ type: 'repository', name: 'v2/x', actions: ['pull'] }] });
    expect(await signer.verify(token)).toMatchObject({ sub: 'alice', access: [{ type: 'repository', name: 'v2/x', actions: ['pull'] }] });
    const other = new TokenSigner(privateKey, 'flotilla', 'elsewhere', () => now);
    expect(await other.verify(token)).toBeNull();
    const stranger = new TokenSigner(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey, 'flotilla', 'registry.example:5000', () => now);
    expect(await stranger.verify(token)).toBeNull();
    now += 601_000;
    expect(await signer.verify(token)).toBeNull();
  });

  it('signs RS256 with an RSA key', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    expect(new TokenSigner(privateKey, 'i', 's').alg).toBe('RS256');
  });
});

describe('registry configuration', () => {
  it('needs a token key for an external registry, and takes a bare http(s)://host[:port]', () => {
    expect(() => loadConfig({ FLOTILLA_REGISTRY_URL: 'http://registry.example:5000' })).toThrow(/FLOTILLA_REGISTRY_TOKEN_KEY/);
    expect(() => loadConfig({ FLOTILLA_REGISTRY_URL: 'http://registry.example:5000/some/path', FLOTILLA_REGISTRY_TOKEN_KEY: '/k.pem' })).toThrow(/without a path/);
    const c = loadConfig({ FLOTILLA_REGISTRY_URL: 'http://registry.example:5000', FLOTILLA_REGISTRY_TOKEN_KEY: '/k.pem' });
    expect(c).toMatchObject({ FLOTILLA_REGISTRY_ISSUER: 'flotilla', FLOTILLA_REGISTRY_UPLOAD_MAX_AGE_HOURS: 24 });
  });
});
