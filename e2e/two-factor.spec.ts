import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { watchPageProblems } from './support/csp';
import { nextTotpCode, totpStep } from './support/totp';
import { newEmail, registerUser, signIn, submitLogin } from './support/users';

/*
 * Issue 6 item 4 (spec 1 §2, §4): enable two-factor in the preferences, sign out, sign in
 * with an authenticator code, sign out, sign in with a recovery code.
 */

async function signOut(page: Page, email: string) {
  await page.getByRole('button', { name: new RegExp(`^${email.split('@')[0]!.slice(0, 12)}`) }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

test('enable two-factor, then sign in with a TOTP code and with a recovery code', async ({ page, request }) => {
  // The QR code is a data: image under the strict CSP; no inline script may be needed.
  const problems = await watchPageProblems(page);
  // While the second factor is pending the dashboard must not call what such a token may not.
  const unauthorized: string[] = [];
  page.on('response', (r) => {
    if (r.status() === 401) unauthorized.push(`${r.request().method()} ${new URL(r.url()).pathname}`);
  });
  const email = newEmail('twofa');
  await registerUser(request, email);
  await signIn(page, email);

  // Enable in the preferences' 2fa tab: QR code and pairing code, then a code from the app.
  await page.goto('/preferences/2fa');
  const status = page.getByTestId('two-factor-status');
  await expect(status).toHaveText('Disabled');
  await page.getByRole('button', { name: 'Enable two-factor authentication' }).click();
  const setup = page.getByRole('dialog', { name: 'Set up two-factor authentication' });
  await expect(setup.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const pairingCode = (await setup.getByTestId('pairing-code').innerText()).trim();
  expect(pairingCode.replace(/\s/g, '')).toMatch(/^[A-Z2-7]{32}$/);

  // A wrong code is refused with the server's message and nothing changes.
  const first = nextTotpCode(pairingCode, totpStep() - 2);
  const wrong = String((Number(first.code) + 500_000) % 1_000_000).padStart(6, '0');
  await setup.getByLabel('Authentication code').fill(wrong);
  await setup.getByRole('button', { name: 'Enable' }).click();
  await expect(page.getByText('Invalid two-factor code')).toBeVisible();

  await setup.getByLabel('Authentication code').fill(first.code);
  await setup.getByRole('button', { name: 'Enable' }).click();
  let lastStep = first.step;

  // The recovery codes: ten, two per row, downloadable as a text file.
  const codesDialog = page.getByRole('dialog', { name: 'Recovery codes' });
  await expect(codesDialog.getByTestId('recovery-code')).toHaveCount(10);
  const codes = (await codesDialog.getByTestId('recovery-code').allInnerTexts()).map((c) => c.trim());
  const firstBox = await codesDialog.getByTestId('recovery-code').nth(0).boundingBox();
  const secondBox = await codesDialog.getByTestId('recovery-code').nth(1).boundingBox();
  expect(Math.abs(firstBox!.y - secondBox!.y)).toBeLessThan(2);
  expect(secondBox!.x).toBeGreaterThan(firstBox!.x);
  const downloading = page.waitForEvent('download');
  await codesDialog.getByRole('button', { name: 'Download as text file' }).click();
  const file = await downloading;
  expect(file.suggestedFilename()).toBe('flotilla-recovery-codes.txt');
  const text = await readFile((await file.path())!, 'utf8');
  for (const code of codes) expect(text).toContain(code);
  await codesDialog.getByRole('button', { name: 'I have saved my codes' }).click();
  await expect(codesDialog).toBeHidden();
  await expect(status).toHaveText('Enabled');

  // Sign out; sign in: the password alone leads to the second step, which guards every page.
  await signOut(page, email);
  await submitLogin(page, email);
  await expect(page).toHaveURL(/\/login\/two-factor$/);
  await page.goto('/orgs');
  await expect(page).toHaveURL(/\/login\/two-factor$/);
  // Exactly 6 characters submit by themselves; then the remembered page opens.
  const login = nextTotpCode(pairingCode, lastStep);
  lastStep = login.step;
  await page.getByLabel('Authentication code').fill(login.code);
  await expect(page).toHaveURL(/\/orgs$/);

  // Sign out; sign in with a recovery code instead.
  await signOut(page, email);
  await submitLogin(page, email);
  await expect(page).toHaveURL(/\/login\/two-factor$/);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(codes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/fleets$/);

  // That recovery code is used up.
  await signOut(page, email);
  await submitLogin(page, email);
  await expect(page).toHaveURL(/\/login\/two-factor$/);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(codes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('Invalid recovery code')).toBeVisible();
  await expect(page).toHaveURL(/\/login\/two-factor$/);
  // Only the refused codes' 400 answers may show in the console.
  expect(unauthorized).toEqual([]);
  expect(problems.errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
});
