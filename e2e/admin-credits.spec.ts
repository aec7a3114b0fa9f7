import { expect, test } from '@playwright/test';
import { apiAs, registerApiUser } from './support/api';
import { seriousViolations } from './support/axe';
import { arrangeSql } from './support/db';
import { PLATFORM_ADMIN, platformAdminToken } from './support/outbox';
import { E2E_PORTS } from './support/ports';
import { useBillingNode } from './support/second-node';
import { newEmail, signIn, submitLogin } from './support/users';

/*
 * Issue 18 (admin credits): /admin "Credits and refunds" on a server with billing on (a second
 * server process, FLOTILLA_BILLING=on, the manual provider). A platform administrator finds an
 * organization, grants it complimentary credits (its administrator sees them on the credits
 * page at once), and refunds a credit purchase that was manually invoiced and then marked paid,
 * behind a confirmation naming the amount.
 */

// axe is injected as an inline script, which the dashboard's CSP (rightly) forbids.
test.use({ bypassCSP: true, baseURL: `http://127.0.0.1:${E2E_PORTS.server2}` });
useBillingNode();

test('a platform administrator grants complimentary credits and refunds a paid purchase; the organization sees both', async ({ page, browser, request }) => {
  test.setTimeout(240_000);
  const owner = await registerApiUser(request, newEmail('creditsowner'));
  const name = `Refundable ${Date.now().toString(36)}`;
  const orgId = (await apiAs<{ id: number }>(request, owner, 'POST', '/v7/organization', { name })).id;
  await arrangeSql('UPDATE subscription SET is_active = false, ends_on__date = now() WHERE is_for__organization = $1 AND is_active', [orgId]);
  await arrangeSql(`INSERT INTO subscription (is_for__organization, is_for__plan, billing_cycle, is_active, origin) SELECT $1, id, 'monthly', true, 'admin' FROM plan WHERE billing_code = 'pilot-v2'`, [
    orgId,
  ]);
  await apiAs(request, owner, 'PATCH', `/billing/v1/account/${orgId}/info`, { token_type: 'manual', token_id: 'PO-7' });
  // The organization buys 10 credits paying by invoice, and the transfer arrives (marked paid).
  const features = await apiAs<{ d: { id: number }[] }>(request, owner, 'GET', `/v7/feature?$select=id&$filter=slug eq 'credits:device'`);
  const bundle = await apiAs<{ id: number; payment_status: string; is_associated_with__invoice_id: string }>(request, owner, 'POST', '/v7/credit_bundle', {
    belongs_to__organization: orgId,
    is_for__feature: features.d[0]!.id,
    original_quantity: 10,
  });
  expect(bundle.payment_status).toBe('manually invoiced');
  const adminToken = await platformAdminToken(request);
  const paid = await request.post(`/admin/v1/billing/invoices/${bundle.is_associated_with__invoice_id}/mark-paid`, { headers: { Authorization: `Bearer ${adminToken}` } });
  expect(paid.status(), await paid.text()).toBe(200);

  await page.goto('/login');
  await submitLogin(page, PLATFORM_ADMIN.username, PLATFORM_ADMIN.password);
  await expect(page).toHaveURL(/\/fleets$/, { timeout: 30_000 });
  await page.goto('/admin');
  const section = page.locator('section[aria-labelledby="admin-credits"]');
  await expect(page.getByRole('heading', { level: 2, name: 'Credits and refunds' })).toBeVisible({ timeout: 30_000 });
  // The owner's personal organization is on the free plan: the server refuses, and the dialog says it as the server does.
  await section.getByLabel('Organization name').fill(owner.username);
  await section.getByRole('button', { name: 'Find' }).click();
  const personal = section.getByRole('table', { name: 'Organizations' }).getByRole('row').filter({ hasText: `(${owner.username})` });
  await expect(personal).toHaveCount(1, { timeout: 30_000 });
  await personal.getByRole('button', { name: /^Credits of / }).click();
  await expect(section.getByText('No credits have been granted and nothing has been refunded yet.')).toBeVisible({ timeout: 30_000 });
  await section.getByRole('button', { name: 'Grant complimentary credits' }).click();
  const refusal = page.getByRole('dialog', { name: /^Grant complimentary credits to / });
  await refusal.getByLabel('Credits').fill('5');
  await refusal.getByLabel('Reason').fill('Trying the free plan');
  await refusal.getByRole('button', { name: 'Grant' }).click();
  await expect(refusal.getByRole('alert')).toHaveText('This organization’s plan (Free) does not include credits: credits can be granted once it is on a plan that does', { timeout: 30_000 });
  await refusal.getByRole('button', { name: 'Cancel' }).click();
  await expect(refusal).toBeHidden();

  await section.getByLabel('Organization name').fill(name);
  await section.getByRole('button', { name: 'Find' }).click();
  const orgRow = section.getByRole('table', { name: 'Organizations' }).getByRole('row').filter({ hasText: name });
  await expect(orgRow).toHaveCount(1, { timeout: 30_000 });
  await expect(orgRow).toContainText('Pilot');
  await orgRow.getByRole('button', { name: `Credits of ${name}` }).click();
  const heading = section.getByRole('heading', { level: 3 });
  await expect(heading).toHaveText(`${name}: 10 credits available`, { timeout: 30_000 });
  expect(await seriousViolations(page, ['section[aria-labelledby="admin-credits"]'])).toEqual([]);

  // Grant: the model's rules refuse an empty form before anything is sent.
  await section.getByRole('button', { name: 'Grant complimentary credits' }).click();
  let dialog = page.getByRole('dialog', { name: `Grant complimentary credits to ${name}` });
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Grant' }).click();
  await expect(dialog.getByText('The number of credits must be a whole number from 1 to 100,000,000')).toBeVisible();
  await expect(dialog.getByText('Give a reason: it is kept in the log of grants and refunds')).toBeVisible();
  await dialog.getByLabel('Credits').fill('25');
  await dialog.getByLabel('Reason').fill('Pilot onboarding');
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
  await dialog.getByRole('button', { name: 'Grant' }).click();
  await expect(page.getByText(`Complimentary credits granted to ${name}`)).toBeVisible({ timeout: 30_000 });
  await expect(dialog).toBeHidden();
  await expect(heading).toHaveText(`${name}: 35 credits available`, { timeout: 30_000 });
  const log = section.getByRole('table', { name: 'Grants and refunds' });
  await expect(log.getByRole('row').filter({ hasText: 'Pilot onboarding' })).toContainText('25 credits', { timeout: 30_000 });

  // Refund the paid purchase: the confirmation names the amount; cancelling changes nothing.
  const bundles = section.getByRole('table', { name: `Credit bundles of ${name}` });
  const refundButton = bundles.getByRole('button', { name: /^Refund 10 credits bought / });
  await refundButton.click();
  dialog = page.getByRole('dialog', { name: 'Refund $40.00?' });
  await expect(dialog).toContainText(`Send $40.00 for 10 credits back to ${name}`);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(heading).toHaveText(`${name}: 35 credits available`);
  await refundButton.focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Reason').fill('Bought by mistake');
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
  await dialog.getByRole('button', { name: 'Refund $40.00' }).click();
  await expect(page.getByText('Refunded $40.00 for 10 credits')).toBeVisible({ timeout: 30_000 });
  await expect(heading).toHaveText(`${name}: 25 credits available`, { timeout: 30_000 });
  await expect(bundles.getByRole('row').filter({ hasText: 'Refunded' })).toHaveCount(1, { timeout: 30_000 });
  await expect(bundles.getByRole('button', { name: /^Refund 10 credits bought / })).toHaveCount(0);
  await expect(section.getByRole('table', { name: `Invoices of ${name}` }).getByRole('row').filter({ hasText: bundle.is_associated_with__invoice_id })).toContainText('refunded');
  await expect(log.getByRole('row').filter({ hasText: 'Bought by mistake' })).toContainText(`$40.00 (${bundle.is_associated_with__invoice_id})`);

  // The organization's administrator sees the balance and both bundles on the credits page.
  const ownerContext = await browser.newContext({ baseURL: `http://127.0.0.1:${E2E_PORTS.server2}`, bypassCSP: true });
  const ownerPage = await ownerContext.newPage();
  await signIn(ownerPage, owner.email);
  await ownerPage.goto(`/orgs/${orgId}/credits`);
  await expect(ownerPage.getByTestId('credits-balance')).toHaveText('25', { timeout: 30_000 });
  const history = ownerPage.getByRole('table', { name: 'Purchase history' });
  await expect(history.getByRole('row').filter({ hasText: 'Complimentary' })).toHaveCount(1, { timeout: 30_000 });
  await expect(history.getByRole('row').filter({ hasText: 'Refunded' })).toHaveCount(1);
  await ownerContext.close();
});
