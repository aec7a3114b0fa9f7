import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { apiAs, organizationWithMember, registerApiUser } from './support/api';
import { seriousViolations } from './support/axe';
import { PLATFORM_ADMIN } from './support/outbox';
import { E2E_PORTS } from './support/ports';
import { useBillingNode } from './support/second-node';
import { newEmail, signIn } from './support/users';

/*
 * Issue 18 (spec 3 §2, §4, §5): the billing page. The main e2e server keeps billing off (other
 * specs give operator roles on free organizations); this spec starts a second server process
 * with FLOTILLA_BILLING=on (the manual payment provider) on the same database and opens the
 * billing-on pages there.
 */

// axe is injected as an inline script, which the dashboard's CSP (rightly) forbids.
test.use({ bypassCSP: true });

// The second node (support/second-node.ts), started below with billing on.
const BILLING_URL = `http://127.0.0.1:${E2E_PORTS.server2}`;

async function newOrganization(request: Parameters<typeof apiAs>[0], user: Awaited<ReturnType<typeof registerApiUser>>, name: string) {
  const { id } = await apiAs<{ id: number }>(request, user, 'POST', '/v7/organization', { name });
  return id;
}

test.describe('billing off (the main e2e server)', () => {
  test('the billing page says billing is off on this server, and nothing else', async ({ page, request }) => {
    const user = await registerApiUser(request, newEmail('billing_off'));
    const orgId = await newOrganization(request, user, `Billing off ${Date.now().toString(36)}`);
    await signIn(page, user.email);
    await page.goto(`/orgs/${orgId}/billing`);
    await expect(page.getByText('Billing is off on this server', { exact: false })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('heading', { name: 'Available plans' })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Invoices' })).toHaveCount(0);
  });
});

test.describe('billing on', () => {
  test.use({ baseURL: BILLING_URL });
  useBillingNode();

  test('a member who is not an administrator is sent to /orgs with an error', async ({ page, request }) => {
    const admin = await registerApiUser(request, newEmail('billing_admin'));
    const member = await registerApiUser(request, newEmail('billing_member'));
    const orgId = await organizationWithMember(request, admin, member, `Billing member ${Date.now().toString(36)}`);
    // The server refuses too (spec 3 §6), not only the page.
    const denied = await request.get(`/billing/v1/account/${orgId}/plan`, { headers: { Authorization: `Bearer ${member.token}` } });
    expect(denied.status()).toBe(403);

    await signIn(page, member.email);
    await page.goto(`/orgs/${orgId}/billing`);
    await expect(page).toHaveURL(/\/orgs$/, { timeout: 30_000 });
    await expect(page.getByText('Only administrators of this organization can access its billing')).toBeVisible();
  });

  test('an administrator upgrades paying by invoice, the invoice is paid and downloaded, then cancels back to free', async ({ page, request }) => {
    test.setTimeout(240_000);
    const admin = await registerApiUser(request, newEmail('billing_owner'));
    const orgName = `Billing flow ${Date.now().toString(36)}`;
    const orgId = await newOrganization(request, admin, orgName);
    await signIn(page, admin.email);
    await page.goto(`/orgs/${orgId}/billing`);

    // The free plan: the plans table, usage, and the invoices' empty state.
    const plans = page.locator('#billing-plans');
    await expect(plans.getByRole('heading', { name: 'Available plans' })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText(/^Free plan, billed monthly$/)).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('heading', { name: 'Usage this period' })).toBeVisible();
    await expect(page.getByText('No invoices yet.', { exact: false })).toBeVisible();
    await expect(page.getByText('No payment method yet.', { exact: false })).toBeVisible();
    await expect(plans.getByRole('button', { name: 'Current plan: Free' })).toBeDisabled();
    await expect(plans.getByRole('link', { name: 'Contact sales: Enterprise' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    // Monthly, then the upgrade by keyboard: no payment method yet, so the form comes first.
    await plans.getByRole('button', { name: 'Billed monthly' }).click();
    const upgrade = plans.getByRole('button', { name: 'Upgrade: Prototype' });
    await upgrade.focus();
    await page.keyboard.press('Enter');
    const form = page.getByRole('dialog', { name: 'Payment method' });
    await expect(form).toBeVisible();
    await expect(form.getByRole('radio', { name: 'Pay by bank transfer / purchase order' })).toBeChecked();
    expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
    await form.getByRole('button', { name: 'Save payment method' }).click();
    await expect(form.getByText('Required').first()).toBeVisible();
    await fillAddress(page);
    await form.getByRole('button', { name: 'Save payment method' }).click();
    await expect(page.getByText('billing information updated')).toBeVisible({ timeout: 30_000 });

    // Then the proposal: confirm with the keyboard ('Pay now': the plan costs something).
    const confirm = page.getByRole('dialog', { name: 'Change plan to Prototype' });
    await expect(confirm).toBeVisible();
    expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
    await confirm.getByRole('button', { name: 'Pay now' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText('plan updated')).toBeVisible({ timeout: 30_000 });
    await expect(confirm).toBeHidden();
    await expect(page.getByText(/^Prototype plan, billed monthly$/)).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('payment-method')).toHaveText('Pay by invoice (bank transfer / purchase order)');
    await expect(page.getByText('Ada Lovelace')).toBeVisible();

    // The invoice appears, waiting for the bank transfer.
    const invoice = page.getByTestId('invoice-row').first();
    await expect(invoice).toBeVisible({ timeout: 30_000 });
    await expect(invoice.getByText(/^(Open|Pending|Processing)$/)).toBeVisible();
    const number = ((await invoice.locator('td').first().textContent()) ?? '').trim();
    expect(number).toMatch(/^FLT-\d{6}$/);

    // A platform administrator marks it paid in /admin (the money arrived).
    await markPaidInAdmin(page, number);
    await page.goto(`/orgs/${orgId}/billing`);
    const paid = page.getByTestId('invoice-row').filter({ hasText: number });
    await expect(paid.getByText(/^Paid$/)).toBeVisible({ timeout: 30_000 });

    // The PDF downloads.
    const downloading = page.waitForEvent('download');
    await paid.getByRole('button', { name: `Download invoice ${number}` }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`${number}.pdf`);
    const file = await readFile((await download.path())!);
    expect(file.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // Cancel back to free, confirmed.
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    const cancel = page.getByRole('dialog', { name: 'Cancel subscription' });
    await expect(cancel).toBeVisible();
    await expect(cancel).toContainText('every member and team with the operator role on a fleet becomes an observer');
    expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
    await cancel.getByRole('button', { name: 'Cancel subscription' }).click();
    await expect(page.getByText('plan updated')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText(/^Free plan, billed monthly$/)).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('button', { name: 'Cancel subscription' })).toHaveCount(0);

    // `plan` and `cycle` propose a change on load (the payment method is kept): the dialog, dismissed.
    await page.goto(`/orgs/${orgId}/billing?plan=pilot-v2&cycle=annual#billing-plans`);
    const proposed = page.getByRole('dialog', { name: 'Change plan to Pilot' });
    await expect(proposed).toBeVisible({ timeout: 30_000 });
    await expect(proposed.getByText(/^Pilot, billed annually:/)).toBeVisible();
    await proposed.getByRole('button', { name: 'Cancel' }).click();
    await expect(proposed).toBeHidden();
    // The proposal parameters are dropped once read.
    await expect(page).toHaveURL(new RegExp(`/orgs/${orgId}/billing(#billing-plans)?$`));
    await expect(page.getByText(/^Free plan, billed monthly$/)).toBeVisible();
  });
});

async function fillAddress(page: Page) {
  const form = page.getByRole('dialog', { name: 'Payment method' });
  await form.getByLabel('First name').fill('Ada');
  await form.getByLabel('Last name').fill('Lovelace');
  await form.getByLabel('Company').fill('Analytical Engines Ltd');
  await form.getByLabel('Address line 1').fill('12 St James Square');
  await form.getByLabel('City').fill('London');
  await form.getByLabel('Postal code').fill('SW1Y 4JH');
  await form.getByLabel('Country').fill('GB');
  await form.getByLabel('Phone').fill('+44 20 7946 0000');
}

/** Signs in as the e2e platform administrator in another browser context and marks the invoice paid in /admin (confirmed). */
async function markPaidInAdmin(page: Page, invoiceNumber: string) {
  const context = await page.context().browser()!.newContext({ baseURL: BILLING_URL });
  const admin = await context.newPage();
  try {
    await signIn(admin, PLATFORM_ADMIN.username, PLATFORM_ADMIN.password);
    await admin.goto('/admin');
    const row = admin.getByRole('table', { name: 'Unpaid invoices' }).getByRole('row').filter({ hasText: invoiceNumber });
    await expect(row).toBeVisible({ timeout: 30_000 });
    await row.getByRole('button', { name: `Mark paid ${invoiceNumber}` }).click();
    const dialog = admin.getByRole('dialog', { name: `Mark invoice ${invoiceNumber} paid?` });
    await dialog.getByRole('button', { name: 'Mark paid' }).click();
    await expect(admin.getByText(`Invoice ${invoiceNumber} marked paid`)).toBeVisible({ timeout: 30_000 });
  } finally {
    await context.close();
  }
}
