import { cliCallbackUrl } from '@flotilla/model';
import { describe, expect, it } from 'vitest';
import { loginPageUrl, receiveTokenFromBrowser } from './login.js';

const post = (url: string, body: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });

describe('browser login hand-over', () => {
  it("names a callback the dashboard's /login/cli page accepts", () => {
    const page = loginPageUrl('http://fleet.example:8080', 'http://127.0.0.1:41234/auth');
    expect(page.startsWith('http://fleet.example:8080/login/cli/')).toBe(true);
    const encoded = page.slice('http://fleet.example:8080/login/cli/'.length);
    expect(cliCallbackUrl(encoded)?.toString()).toBe('http://127.0.0.1:41234/auth');
  });

  it('resolves with the token the dashboard posts, after the server accepts it; refuses others', async () => {
    let pageUrl = '';
    const token = receiveTokenFromBrowser('http://api', {
      timeoutMs: 10_000,
      onUrl: (url) => {
        pageUrl = url;
      },
      check: async (t) => t === 'good',
    });
    await expect.poll(() => pageUrl).not.toBe('');
    const callback = cliCallbackUrl(pageUrl.slice('http://api/login/cli/'.length))!.toString();
    expect((await fetch(callback)).status).toBe(404);
    expect((await post(callback, '')).status).toBe(400);
    expect((await post(callback, 'token=bad')).status).toBe(401);
    const ok = await post(callback, 'token=good');
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('You are logged in');
    await expect(token).resolves.toBe('good');
  });

  it('gives up after the timeout', async () => {
    await expect(receiveTokenFromBrowser('http://api', { timeoutMs: 50, onUrl: () => undefined, check: async () => true })).rejects.toThrow(/no login arrived/);
  });
});
