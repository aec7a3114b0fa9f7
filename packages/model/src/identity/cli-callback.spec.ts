import { describe, expect, it } from 'vitest';
import { cliCallbackUrl } from './cli-callback.js';

// What balena CLI puts after /login/cli/: encodeURIComponent, then every % as %25.
const cliEncode = (url: string) => encodeURIComponent(url).replace(/%/g, '%25');

describe('CLI login callback host rule', () => {
  it('accepts localhost and IP-address callbacks, encoded the way the CLI does', () => {
    expect(cliCallbackUrl(cliEncode('http://127.0.0.1:59581/auth'))?.href).toBe('http://127.0.0.1:59581/auth');
    expect(cliCallbackUrl(cliEncode('http://localhost:8989/auth'))?.href).toBe('http://localhost:8989/auth');
    expect(cliCallbackUrl(cliEncode('http://192.168.1.20:8989/auth'))?.hostname).toBe('192.168.1.20');
    expect(cliCallbackUrl(cliEncode('http://[::1]:8989/auth'))?.hostname).toBe('[::1]');
    // Encoded once only (a router that already decoded one level).
    expect(cliCallbackUrl(encodeURIComponent('http://127.0.0.1:1234/auth'))?.port).toBe('1234');
  });

  it('refuses any other host, scheme or a URL carrying credentials', () => {
    for (const bad of [
      'http://example.com/auth',
      'http://127.0.0.1.evil.com/auth',
      'http://localhost.evil.com/auth',
      'http://999.1.1.1/auth',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'http://user:pw@127.0.0.1/auth',
      'not a url',
    ]) {
      expect(cliCallbackUrl(cliEncode(bad)), bad).toBeNull();
    }
    expect(cliCallbackUrl('%E0%A4%A')).toBeNull();
  });
});
