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

  it('rejects an empty value', () => {
    expect(isSafeReturnUrl(null)).toBe(false);
    expect(isSafeReturnUrl('')).toBe(false);
  });
});
