import { createHmac } from 'node:crypto';
import { expect, type Page } from '@playwright/test';

/**
 * The e2e server's token signing secret (playwright.config.ts passes it as
 * FLOTILLA_JWT_SECRET). A test-only value: it lets a test date a session's sign-in back in
 * time, which no API can do (the server's clock is real).
 */
export const E2E_JWT_SECRET = 'e2e-only-token-secret-never-used-outside-tests';

const isJwt = (value: string | null) => !!value && /^[\w-]+\.[\w-]+\.[\w-]+$/.test(value);

/**
 * Rewrites the signed-in page's session token so its `authTime` (the last password check) lies
 * `minutes` in the past; everything else in the token stays as the server issued it. Returns
 * the new token.
 */
export async function backdateSignIn(page: Page, minutes: number): Promise<string> {
  const stored = await page.evaluate(() => Object.entries(window.localStorage));
  const entry = stored.find(([, value]) => isJwt(value));
  expect(entry, 'the dashboard keeps a session token in localStorage').toBeTruthy();
  const [key, token] = entry!;
  const [header, payload] = token.split('.') as [string, string];
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { authTime: number };
  const body = `${header}.${Buffer.from(JSON.stringify({ ...claims, authTime: Date.now() - minutes * 60_000 })).toString('base64url')}`;
  const aged = `${body}.${createHmac('sha256', E2E_JWT_SECRET).update(body).digest('base64url')}`;
  await page.evaluate(([k, v]) => window.localStorage.setItem(k, v), [key, aged] as const);
  return aged;
}

/** The authTime of the page's current session token. */
export async function signInTime(page: Page): Promise<number> {
  const stored = await page.evaluate(() => Object.values(window.localStorage));
  const token = stored.find(isJwt)!;
  return (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { authTime: number }).authTime;
}
