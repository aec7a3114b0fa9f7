import { expect, test } from '@playwright/test';
import { registerApiUser } from './support/api';
import { arrangeSql } from './support/db';
import { PLATFORM_ADMIN } from './support/outbox';
import { seriousViolations } from './support/axe';
import { useBillingNode } from './support/second-node';
import { newEmail, submitLogin } from './support/users';

/*
 * Issue 18 (ledger): /admin "Invoices" on a server with billing on (FLOTILLA_BILLING=on, the
 * manual provider): a platform administrator sees every organization's unpaid invoices and marks
 * one paid behind a confirmation; the frozen organization is unfrozen at once. The server with
 * billing on is a second process on the same database (the main e2e server runs billing off).
 */

// axe is injected as an inline script, which the dashboard's CSP (rightly) forbids.
test.use({ bypassCSP: true });
const node = useBillingNode({ FLOTILLA_BILLING_MANUAL_INSTRUCTIONS: 'Bank transfer to IBAN GB00 E2E' });

test('a platform administrator marks a past-due invoice paid and the frozen organization is unfrozen', async ({ page, request }) => {
  test.setTimeout(180_000);
  const owner = await registerApiUser(request, newEmail('invoiceowner'));
  const orgs = await request.get(`/v7/organization?$select=id&$filter=handle eq '${owner.username}'`, { headers: { Authorization: `Bearer ${owner.token}` } });
  const orgId = ((await orgs.json()) as { d: { id: number }[] }).d[0]!.id;
  const number = `E2E-${Date.now().toString(36)}`;
  // An invoice 61 days past due, and the organization frozen for it (as the daily job leaves it).
  await arrangeSql(
    `WITH i AS (
       INSERT INTO invoice (organization, invoice_number, kind, state, issued_at, due_on, total_in_cents, provider)
       VALUES ($1, $2, 'period', 'past_due', now() - interval '91 days', now() - interval '61 days', 12345, 'manual') RETURNING id, due_on)
     UPDATE organization SET is_frozen = true, has_past_due_invoice_since__date = (SELECT due_on FROM i) WHERE id = $1`,
    [orgId, number],
  );
  const types = await request.get(`/v7/device_type?$select=id&$filter=slug eq 'raspberrypi3'`, { headers: { Authorization: `Bearer ${owner.token}` } });
  const deviceType = ((await types.json()) as { d: { id: number }[] }).d[0]!.id;
  const fleetWrite = await request.post(`${node.baseURL}/v7/application`, {
    headers: { Authorization: `Bearer ${owner.token}` },
    data: { app_name: `frozen${Date.now().toString(36)}`, organization: orgId, is_for__device_type: deviceType },
  });
  expect(fleetWrite.status()).toBe(402);
  expect(await fleetWrite.json()).toContain('more than 60 days past due');

  await page.goto(`${node.baseURL}/login`);
  await submitLogin(page, PLATFORM_ADMIN.username, PLATFORM_ADMIN.password);
  await expect(page).toHaveURL(/\/fleets$/, { timeout: 30_000 });
  await page.goto(`${node.baseURL}/admin`);
  await expect(page.getByRole('heading', { level: 2, name: 'Invoices' })).toBeVisible({ timeout: 30_000 });
  const table = page.getByRole('table', { name: 'Unpaid invoices' });
  const row = table.getByRole('row').filter({ hasText: number });
  await expect(row).toHaveCount(1, { timeout: 30_000 });
  await expect(row).toContainText('$123.45 USD');
  await expect(row).toContainText('Past due:');
  await expect(row).toContainText(owner.username);
  expect(await seriousViolations(page, ['section[aria-labelledby="admin-invoices"]'])).toEqual([]);

  // Behind a confirmation: cancelling changes nothing.
  await row.getByRole('button', { name: `Mark paid ${number}` }).click();
  let dialog = page.getByRole('dialog', { name: `Mark invoice ${number} paid?` });
  await expect(dialog).toContainText('$123.45 USD');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toHaveCount(1);

  await row.getByRole('button', { name: `Mark paid ${number}` }).focus();
  await page.keyboard.press('Enter');
  dialog = page.getByRole('dialog', { name: `Mark invoice ${number} paid?` });
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
  await dialog.getByRole('button', { name: 'Mark paid' }).click();
  await expect(page.getByText(`Invoice ${number} marked paid`)).toBeVisible({ timeout: 30_000 });
  await expect(row).toHaveCount(0, { timeout: 30_000 });

  // The owner's billing shows it paid and the organization's fleets take writes again.
  const invoices = await request.get(`${node.baseURL}/billing/v1/account/${orgId}/invoices`, { headers: { Authorization: `Bearer ${owner.token}` } });
  expect(invoices.status()).toBe(200);
  expect(((await invoices.json()) as { invoice_number: string; state: string }[]).find((i) => i.invoice_number === number)?.state).toBe('paid');
  const org = await request.get(`${node.baseURL}/v7/organization(${orgId})?$select=is_frozen,has_past_due_invoice_since__date`, { headers: { Authorization: `Bearer ${owner.token}` } });
  expect(((await org.json()) as { d: unknown[] }).d[0]).toEqual({ is_frozen: false, has_past_due_invoice_since__date: null });
});
