import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiAs, organizationWithMember, registerApiUser, type ApiUser } from './support/api';
import { seriousViolations } from './support/axe';
import { arrangeSql } from './support/db';
import { organizationWithFleet } from './support/fleets';
import { E2E_PORTS } from './support/ports';
import { useBillingNode } from './support/second-node';
import { newEmail, signIn } from './support/users';

/*
 * Issue 18 items 6 and 7, the dashboard side (spec 3 §2 credits page, §4 credits purchase,
 * past due and free allowance, §5, §8): the credits page, the billing banners and the
 * frozen-devices dialog. The main e2e server keeps billing off; this spec opens the pages on a
 * second server process with FLOTILLA_BILLING=on (the manual payment provider) on the same
 * database. A plan is set in the database directly (plan change is the billing spec's), and so
 * is a past-due date (the daily job's outcome is the ledger's tests').
 */

// axe is injected as an inline script, which the dashboard's CSP (rightly) forbids.
test.use({ bypassCSP: true, baseURL: `http://127.0.0.1:${E2E_PORTS.server2}` });

useBillingNode();

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;

async function newOrganization(request: APIRequestContext, user: ApiUser, name: string): Promise<number> {
  return (await apiAs<{ id: number }>(request, user, 'POST', '/v7/organization', { name })).id;
}

/** The organization's active subscription becomes `code` (monthly). */
async function setPlan(orgId: number, code: string): Promise<void> {
  await arrangeSql('UPDATE subscription SET is_active = false, ends_on__date = now() WHERE is_for__organization = $1 AND is_active', [orgId]);
  await arrangeSql(
    `INSERT INTO subscription (is_for__organization, is_for__plan, billing_cycle, is_active, origin)
     SELECT $1, id, 'monthly', true, 'admin' FROM plan WHERE billing_code = $2`,
    [orgId, code],
  );
}

async function setPastDue(orgId: number, daysAgo: number | null, frozen = false): Promise<void> {
  await arrangeSql(`UPDATE organization SET has_past_due_invoice_since__date = CASE WHEN $2::int IS NULL THEN NULL ELSE now() - make_interval(days => $2::int) END, is_frozen = $3 WHERE id = $1`, [
    orgId,
    daysAgo,
    frozen,
  ]);
}

async function expectNoAxeViolations(page: Page, include?: string[]) {
  expect(await seriousViolations(page, include)).toEqual([]);
}

test('an organization on a credits plan buys credits paying by invoice, plans its runway and turns notifications on', async ({ page, request }) => {
  test.setTimeout(240_000);
  const admin = await registerApiUser(request, newEmail('credits_admin'));
  const orgId = await newOrganization(request, admin, `Credits ${unique()}`);
  await setPlan(orgId, 'pilot-v2');

  await signIn(page, admin.email);
  // The organization's page leads its administrator to the credits page.
  await page.goto(`/orgs/${orgId}`);
  await page.getByRole('link', { name: 'Credits' }).click();
  await expect(page).toHaveURL(new RegExp(`/orgs/${orgId}/credits$`), { timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Credits' })).toBeVisible({ timeout: 30_000 });
  // No payment method yet: the summary asks for one first.
  await expect(page.getByRole('link', { name: 'Add payment method' })).toHaveAttribute('href', `/orgs/${orgId}/billing#payment-method`, { timeout: 30_000 });
  await expect(page.getByText('No credits bought yet')).toBeVisible();

  // Pay by bank transfer / purchase order (the manual provider).
  await apiAs(request, admin, 'PATCH', `/billing/v1/account/${orgId}/info`, {
    token_type: 'manual',
    token_id: 'PO-1',
    full_name: 'Ada Lovelace',
    address1: '1 Main Street',
    city: 'London',
    zip: 'N1 1AA',
    country: 'GB',
  });
  await page.reload();
  const balance = page.getByTestId('credits-balance');
  await expect(balance).toHaveText('0', { timeout: 30_000 });
  await expectNoAxeViolations(page);

  // Runway: defaults 12 months and 1 more device; the pilot plan includes 100, so none needed.
  const runway = page.getByRole('region', { name: 'Runway calculator' });
  await expect(runway.getByLabel('Months')).toHaveValue('12');
  await expect(runway.getByLabel('Additional devices expected')).toHaveValue('1');
  await expect(runway.getByTestId('runway-needed')).toHaveText('Additional credits needed: 0');
  await expect(runway.getByRole('button', { name: 'Buy 0 credits' })).toBeDisabled();
  // A disabled button fires no pointer events: its tooltip sits on the wrapper.
  await runway.locator('span', { has: page.getByRole('button', { name: 'Buy 0 credits' }) }).hover();
  await expect(page.getByRole('tooltip', { name: 'No credits needed' })).toBeVisible();
  // ceil((0 + 105 − 100) × 12 / 2) − 0 = 30; months are capped at 120.
  await runway.getByLabel('Additional devices expected').fill('105');
  await expect(runway.getByTestId('runway-needed')).toHaveText('Additional credits needed: 30');
  await runway.getByLabel('Months').fill('500');
  await expect(runway.getByLabel('Months')).toHaveValue('120');
  await runway.getByLabel('Months').fill('12');

  // The 3-step dialog.
  await page.getByRole('button', { name: 'Add credits' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add credits' });
  const quantity = dialog.getByLabel('Credits to purchase');
  await expect(quantity).toHaveValue('1');
  await quantity.fill('');
  await expect(dialog.getByRole('button', { name: 'Next' })).toBeDisabled();
  await quantity.pressSequentially('2a5-');
  await expect(quantity).toHaveValue('25');
  await expectNoAxeViolations(page, ['[role="dialog"]']);
  // At the contact-sales total the purchase is for sales.
  await quantity.fill('100000000');
  await expect(dialog.getByRole('link', { name: 'Contact sales' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Next' })).toHaveCount(0);
  await quantity.fill('25');
  await dialog.getByRole('button', { name: 'Next' }).click();
  await expect(dialog.getByText('Buy 25 credits for')).toBeVisible();
  await dialog.getByRole('button', { name: 'Go back' }).click();
  await expect(quantity).toHaveValue('25');
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByRole('button', { name: 'Pay now' }).click();
  await expect(dialog.getByText('25 credits were added; they are invoiced to the organization.')).toBeVisible({ timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Purchase more credits' }).click();
  await expect(dialog.getByLabel('Credits to purchase')).toHaveValue('1');
  await expect(dialog.getByRole('button', { name: 'Next' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);

  // The history and the balance count the manually invoiced bundle.
  await expect(balance).toHaveText('25', { timeout: 30_000 });
  const history = page.getByRole('table', { name: 'Purchase history' });
  const row = history.getByRole('row').nth(1);
  await expect(row).toContainText('Manually invoiced');
  await expect(row).toContainText(admin.username);
  await expect(row).toContainText('25');
  await expect(row).toContainText('$');
  await expect(runway.getByTestId('runway-needed')).toHaveText('Additional credits needed: 5');

  // Notifications: the toggle creates the record with twice the device count (0), Apply is
  // disabled until the threshold changes; below it, the threshold banner shows.
  const notifications = page.getByRole('region', { name: 'Notifications' });
  const toggle = notifications.getByRole('switch', { name: 'Email the organization when credits fall below the threshold' });
  await expect(toggle).not.toBeChecked();
  // The switch follows the record: it turns on once the server has created it.
  await toggle.click();
  await expect(toggle).toBeChecked({ timeout: 30_000 });
  await expect(page.getByText('Credit notifications turned on')).toBeVisible({ timeout: 30_000 });
  const threshold = notifications.getByLabel('Threshold (credits)');
  await expect(threshold).toHaveValue('0');
  await expect(notifications.getByRole('button', { name: 'Apply' })).toBeDisabled();
  await threshold.fill('-3');
  await expect(notifications.getByText('Enter a whole number from 0 to 100,000,000')).toBeVisible();
  await expect(notifications.getByRole('button', { name: 'Apply' })).toBeDisabled();
  await threshold.fill('40');
  await notifications.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('Threshold updated')).toBeVisible({ timeout: 30_000 });
  await page.reload();
  await expect(page.getByRole('region', { name: 'Notifications' }).getByLabel('Threshold (credits)')).toHaveValue('40', { timeout: 30_000 });
  const thresholdBanner = page.locator('[data-banner="credits-threshold"]');
  await expect(thresholdBanner).toContainText('credits (25) are below the notification threshold of 40', { timeout: 30_000 });
  await expectNoAxeViolations(page);
  await page.getByRole('region', { name: 'Notifications' }).getByRole('switch').click();
  await expect(page.getByText('Credit notifications turned off')).toBeVisible({ timeout: 30_000 });
  const left = await apiAs<{ d: unknown[] }>(request, admin, 'GET', `/v7/organization_credit_notification?$filter=organization eq ${orgId}`);
  expect(left.d).toEqual([]);
});

test('a free organization is offered an upgrade instead of credits; a member is sent away', async ({ page, request }) => {
  test.setTimeout(180_000);
  const admin = await registerApiUser(request, newEmail('credits_free'));
  const member = await registerApiUser(request, newEmail('credits_member'));
  const orgId = await organizationWithMember(request, admin, member, `Credits free ${unique()}`);
  await signIn(page, admin.email);
  await page.goto(`/orgs/${orgId}/credits`);
  await expect(page.getByRole('link', { name: 'Upgrade plan' })).toHaveAttribute('href', `/orgs/${orgId}/billing#billing-plans`, { timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Add credits' })).toHaveCount(0);

  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await signIn(page, member.email);
  await page.goto(`/orgs/${orgId}/credits`);
  await expect(page).toHaveURL(/\/orgs$/, { timeout: 30_000 });
  await expect(page.getByText('Only administrators of this organization can access its billing')).toBeVisible();
});

test('past-due banners: a warning, then an error with the countdown, dismissals kept across reloads, then frozen', async ({ page, request, browser }) => {
  test.setTimeout(240_000);
  const admin = await registerApiUser(request, newEmail('pastdue_admin'));
  const member = await registerApiUser(request, newEmail('pastdue_member'));
  const orgId = await organizationWithMember(request, admin, member, `Past due ${unique()}`);
  await signIn(page, admin.email);

  await setPastDue(orgId, 10);
  await page.goto(`/orgs/${orgId}`);
  const warning = page.locator('[data-banner="past-due-warning"]');
  await expect(warning).toContainText('past due for 10 days', { timeout: 30_000 });
  await expect(warning.getByRole('link', { name: 'Update billing details' })).toHaveAttribute('href', `/orgs/${orgId}/billing#payment-method`);
  await expectNoAxeViolations(page, ['[aria-label="Billing notices"]']);
  await warning.getByRole('button', { name: 'Dismiss' }).click();
  await expect(warning).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 });
  await page.waitForTimeout(3_000);
  await expect(warning).toHaveCount(0);

  await setPastDue(orgId, 40);
  await page.reload();
  const error = page.locator('[data-banner="past-due-error"]');
  await expect(error).toContainText('past due for 40 days', { timeout: 30_000 });
  await expect(error).toContainText('frozen in 20 days');

  // A member is told to contact the administrators, with no link.
  const memberContext = await browser.newContext({ baseURL: `http://127.0.0.1:${E2E_PORTS.server2}` });
  const memberPage = await memberContext.newPage();
  await signIn(memberPage, member.email);
  await memberPage.goto(`/orgs/${orgId}`);
  // No credits entry for a member.
  await expect(memberPage.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 });
  await expect(memberPage.getByRole('main').getByRole('link', { name: 'Credits' })).toHaveCount(0);
  const memberError = memberPage.locator('[data-banner="past-due-error"]');
  await expect(memberError).toContainText("contact the organization's administrators", { timeout: 30_000 });
  await expect(memberError.getByRole('link', { name: 'Update billing details' })).toHaveCount(0);

  await error.getByRole('button', { name: 'Dismiss' }).click();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 });
  await page.waitForTimeout(3_000);
  await expect(error).toHaveCount(0);

  // 70 days: frozen. The administrator is sent to the billing page, the member to /orgs.
  await setPastDue(orgId, 70, true);
  await page.goto(`/orgs/${orgId}`);
  await expect(page).toHaveURL(new RegExp(`/orgs/${orgId}/billing$`), { timeout: 30_000 });
  await expect(page.getByText('invoices are more than 60 days past due').first()).toBeVisible();
  // The billing page itself carries the frozen banner (the only page a frozen organization's administrators reach).
  await expect(page.locator('[data-banner="frozen"]')).toContainText('more than 60 days past due', { timeout: 30_000 });
  await memberPage.goto(`/orgs/${orgId}/members`);
  await expect(memberPage).toHaveURL(/\/orgs$/, { timeout: 30_000 });
  await expect(memberPage.getByText('Reach out to its administrators').first()).toBeVisible();
  await memberContext.close();
  await setPastDue(orgId, null, false);
});

test('over the free allowance: the banner, the frozen-devices dialog and the add-device warning', async ({ page, request }) => {
  test.setTimeout(240_000);
  const admin = await registerApiUser(request, newEmail('allowance_admin'));
  const { fleetId, deviceTypeId } = await organizationWithFleet(request, admin, `Allowance ${unique()}`, `allowance-${unique()}`, 'raspberrypi4-64');
  // Twelve devices (arranged in the database: registering them is the devices specs' part).
  for (let i = 0; i < 12; i += 1) {
    await arrangeSql(
      `WITH a AS (INSERT INTO actor DEFAULT VALUES RETURNING id)
       INSERT INTO device (actor, uuid, device_name, belongs_to__application, is_of__device_type) SELECT a.id, md5(random()::text || $3::text), $3, $1, $2 FROM a`,
      [fleetId, deviceTypeId, `allowance-device-${i}`],
    );
  }
  await signIn(page, admin.email);
  await page.goto(`/fleets/${fleetId}`);
  const banner = page.locator('[data-banner="free-allowance"]');
  await expect(banner).toContainText('Free plan limits exceeded: this organization has 12 devices, 10 are free, and 2 are frozen.', { timeout: 30_000 });
  await banner.getByRole('button', { name: 'What can I do?' }).click();
  const dialog = page.getByRole('dialog', { name: 'Free plan limits exceeded' });
  await expect(dialog.getByText('Reduce the number of devices below the free allowance, or upgrade to a paid plan.')).toBeVisible();
  await expect(dialog.getByRole('link', { name: 'Upgrade plan' })).toHaveAttribute('href', /\/billing#billing-plans$/);
  await expectNoAxeViolations(page, ['[role="dialog"]']);
  await dialog.getByRole('button', { name: 'Close' }).click();

  await page.goto(`/fleets/${fleetId}/devices`);
  await page.getByRole('button', { name: 'Add device' }).click();
  const addDevice = page.getByRole('dialog');
  await expect(addDevice.getByTestId('free-allowance-reached')).toContainText('Free plan allowance reached', { timeout: 30_000 });
});
