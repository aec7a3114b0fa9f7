import { expect, type APIRequestContext, type Page } from '@playwright/test';

export const PASSWORD = 'correct-horse-battery';

let counter = 0;
/** A fresh, unique account; the local part is long so the header has to cut the username. */
export function newEmail(tag: string): string {
  counter += 1;
  return `e2e_${tag}_${Date.now().toString(36)}${counter}_longname@example.com`;
}

/** Creates an account through the API (POST /user/register), for tests that start signed out. */
export async function registerUser(request: APIRequestContext, email: string, password = PASSWORD): Promise<void> {
  const res = await request.post('/user/register', { data: { email, password } });
  expect(res.status(), await res.text()).toBeLessThan(300);
}

/** Fills the login form that is on screen and submits it. */
export async function submitLogin(page: Page, username: string, password = PASSWORD): Promise<void> {
  await page.getByLabel('Email or username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs up through the form (a fresh browser) and waits for the dashboard. */
export async function signUp(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page).toHaveURL(/\/fleets$/);
}

/** Where balena-sdk keeps the session token in a browser (balena-settings-storage's `balena-` prefix). */
const TOKEN_KEY = 'balena-token';

/**
 * Signs in and opens the dashboard (/fleets). The credentials go to `POST /login_` (the
 * login form's own call) from the test, and the token is stored where the dashboard's SDK
 * keeps it: the login page itself is proven by the specs that drive it (login, account,
 * two-factor). This spares a page load per test on a CPU-bound machine.
 */
export async function signIn(page: Page, username: string, password = PASSWORD): Promise<void> {
  const res = await page.request.post('/login_', { data: { username, password } });
  expect(res.status(), `sign-in of ${username}: ${await res.text()}`).toBe(200);
  const token = await res.text();
  // A cheap same-origin document, so the token can be stored before the dashboard boots.
  await page.goto('/ping');
  await page.evaluate(([key, value]) => window.localStorage.setItem(key, value), [TOKEN_KEY, token] as const);
  await page.goto('/fleets');
  await expect(page).toHaveURL(/\/fleets$/);
}
