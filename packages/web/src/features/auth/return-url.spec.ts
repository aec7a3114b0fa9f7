import { describe, expect, it } from 'vitest';
import { isSafeReturnUrl } from './return-url';

describe('isSafeReturnUrl', () => {
  it('accepts a path on this site, with its query and hash', () => {
    expect(isSafeReturnUrl('/orgs')).toBe(true);
    expect(isSafeReturnUrl('/fleets?page=2#top')).toBe(true);
  });

  it('rejects other sites, including protocol-relative and backslash forms', () => {
    expect(isSafeReturnUrl('https://evil.example/')).toBe(false);
    expect(isSafeReturnUrl('//evil.example/')).toBe(false);
    expect(isSafeReturnUrl('/\\evil.example/')).toBe(false);
  });

  it('rejects the public-only pages, which would bounce a signed-in user forever', () => {
    expect(isSafeReturnUrl('/login')).toBe(false);
    expect(isSafeReturnUrl('/signup?email=a@b.c')).toBe(false);
    expect(isSafeReturnUrl('/login/two-factor')).toBe(false);
  });

  it('accepts the CLI and OAuth consent pages, which need a session', () => {
    expect(isSafeReturnUrl('/login/cli/http%253A%252F%252F127.0.0.1%253A8989%252Fauth')).toBe(true);
    expect(isSafeReturnUrl('/login/oauth/my-client?state=xyz')).toBe(true);
  });

  it('rejects an empty value', () => {
    expect(isSafeReturnUrl(null)).toBe(false);
    expect(isSafeReturnUrl('')).toBe(false);
  });
});
