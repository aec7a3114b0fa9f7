import { expect, test, type Locator, type Page } from '@playwright/test';
import { TEST_CARDS } from '@flotilla/server/test-stripe';
import { apiAs, registerApiUser } from './support/api';
import { seriousViolations } from './support/axe';
import { watchPageProblems } from './support/csp';
import { E2E_PORTS } from './support/ports';
import { useBillingNode } from './support/second-node';
import { newEmail, signIn } from './support/users';

/*
 * Issue 18 (spec 3 §4 payment return flow, §5 payment form) with the Stripe provider in a real
 * browser: a billing node whose FLOTILLA_STRIPE_API_URL and FLOTILLA_STRIPE_JS_URL point at the
 * Stripe stand-in (its API, and a Stripe.js stand-in the card form loads under the dashboard's
 * strict CSP, which allows its origin exactly as it would allow js.stripe.com). An
 * administrator adds a card through the form (a declined card first: Stripe's message, nothing
 * stored), upgrades paying by card (the invoice paid), and an upgrade whose charge is declined
 * shows the 402 message with the plan unchanged.
 */

// The dashboard is opened on the billing node (the session lives in that origin's storage).
test.use({ baseURL: `http://127.0.0.1:${E2E_PORTS.server2}` });
const node = useBillingNode({}, { stripe: true });

async function newOrganization(request: Parameters<typeof apiAs>[0], user: Awaited<ReturnType<typeof registerApiUser>>, name: string) {
  const { id } = await apiAs<{ id: number }>(request, user, 'POST', '/v7/organization', { name });
  return id;
}

/** The card form's Stripe elements (the stand-in's labelled inputs), filled. */
async function fillCardForm(form: Locator, cardNumber: string) {
  await expect(form.getByLabel('Card number')).toBeVisible({ timeout: 30_000 });
  await form.getByLabel('Card number').fill(cardNumber);
  await form.getByLabel('Expiration date (MM / YY)').fill('12 / 30');
  await form.getByLabel('Security code').fill('123');
  await form.getByLabel('First name').fill('Ada');
  await form.getByLabel('Last name').fill('Lovelace');
  await form.getByLabel('Address line 1').fill('12 St James Square');
  await form.getByLabel('City').fill('London');
  await form.getByLabel('Postal code').fill('SW1Y 4JH');
  await form.getByLabel('Country').fill('GB');
  await form.getByLabel('Phone number').fill('+44 20 7946 0000');
}

async function billingInfo(page: Page, token: string, orgId: number) {
  const res = await page.request.get(`${node.baseURL}/billing/v1/account/${orgId}/info`, { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

test.describe('Stripe card form (the dashboard’s CSP enforced)', () => {
  test('a declined card shows Stripe’s message and stores nothing; a good card is saved and the upgrade is paid by it', async ({ page, request }) => {
    test.setTimeout(240_000);
    const problems = await watchPageProblems(page);
    const admin = await registerApiUser(request, newEmail('stripe_owner'));
    const orgId = await newOrganization(request, admin, `Stripe flow ${Date.now().toString(36)}`);
    await signIn(page, admin.email);
    await page.goto(`/orgs/${orgId}/billing`);

    const plans = page.locator('#billing-plans');
    await expect(page.getByText(/^Free plan, billed monthly$/)).toBeVisible({ timeout: 30_000 });
    await plans.getByRole('button', { name: 'Billed monthly' }).click();
    await plans.getByRole('button', { name: 'Upgrade: Prototype' }).click();

    // No payment method yet: the card form comes first (Stripe.js from the stand-in's origin).
    const form = page.getByRole('dialog', { name: 'Payment method' });
    await expect(form).toBeVisible({ timeout: 30_000 });
    await fillCardForm(form, TEST_CARDS.declined);
    const save = form.getByRole('button', { name: 'Save payment method' });
    await expect(save).toBeEnabled({ timeout: 30_000 });
    await save.click();
    await expect(page.getByText('Your card was declined.')).toBeVisible({ timeout: 30_000 });
    await expect(form).toBeVisible();
    expect(await billingInfo(page, admin.token, orgId)).toEqual({});
    expect(node.stripe.to('POST', '/v1/setup_intents/').filter((r) => r.path.endsWith('/confirm'))).not.toHaveLength(0);

    // The good card: saved, then the upgrade is proposed.
    await form.getByLabel('Card number').fill(TEST_CARDS.visa);
    await save.click();
    await expect(page.getByText('billing information updated')).toBeVisible({ timeout: 30_000 });
    await expect(form).toBeHidden();
    const confirm = page.getByRole('dialog', { name: 'Change plan to Prototype' });
    await expect(confirm).toBeVisible({ timeout: 30_000 });
    await confirm.getByRole('button', { name: 'Pay now' }).click();
    await expect(page.getByText('plan updated')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText(/^Prototype plan, billed monthly$/)).toBeVisible({ timeout: 30_000 });

    // The card as Stripe knows it (brand and last four) with the address typed into its element.
    await expect(page.getByTestId('payment-method')).toHaveText('Visa ending in 4242, expires 12/2030', { timeout: 30_000 });
    await expect(page.getByText('12 St James Square')).toBeVisible();
    expect(await billingInfo(page, admin.token, orgId)).toMatchObject({ type: 'card', card_type: 'visa', last_four: '4242', full_name: 'Ada Lovelace' });

    // The upgrade's invoice, charged to the card off session: paid.
    const invoice = page.getByTestId('invoice-row').first();
    await expect(invoice.getByText(/^Paid$/)).toBeVisible({ timeout: 30_000 });
    const charge = node.stripe.to('POST', '/v1/payment_intents').find((r) => r.form['metadata[organization_id]'] === String(orgId));
    expect(charge?.form).toMatchObject({ currency: 'usd', off_session: 'true', confirm: 'true' });

    expect(problems.errors.filter((e) => e.startsWith('csp:'))).toEqual([]);
  });

  test('an upgrade whose charge is declined shows the payment error and leaves the plan and invoices unchanged', async ({ page, request }) => {
    test.setTimeout(240_000);
    const problems = await watchPageProblems(page);
    const admin = await registerApiUser(request, newEmail('stripe_declined'));
    const orgId = await newOrganization(request, admin, `Stripe declined ${Date.now().toString(36)}`);
    await signIn(page, admin.email);
    await page.goto(`/orgs/${orgId}/billing`);
    await expect(page.getByText(/^Free plan, billed monthly$/)).toBeVisible({ timeout: 30_000 });

    // A card that is set up fine but declined when it is charged, added from the payment method card.
    await page.locator('#payment-method').getByRole('button', { name: 'Add payment method' }).click();
    const form = page.getByRole('dialog', { name: 'Payment method' });
    await fillCardForm(form, TEST_CARDS.declinedAtCharge);
    await form.getByRole('button', { name: 'Save payment method' }).click();
    await expect(page.getByText('billing information updated')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('payment-method')).toHaveText('Visa ending in 0341, expires 12/2030', { timeout: 30_000 });

    const plans = page.locator('#billing-plans');
    await plans.getByRole('button', { name: 'Billed monthly' }).click();
    await plans.getByRole('button', { name: 'Upgrade: Prototype' }).click();
    const confirm = page.getByRole('dialog', { name: 'Change plan to Prototype' });
    await expect(confirm).toBeVisible({ timeout: 30_000 });
    await confirm.getByRole('button', { name: 'Pay now' }).click();
    await expect(page.getByText('Your card was declined.')).toBeVisible({ timeout: 30_000 });

    // Nothing changed: still free, no invoice (the server rolled the change back).
    await page.reload();
    await expect(page.getByText(/^Free plan, billed monthly$/)).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('No invoices yet.', { exact: false })).toBeVisible({ timeout: 30_000 });
    const plan = await page.request.get(`${node.baseURL}/billing/v1/account/${orgId}/plan`, { headers: { Authorization: `Bearer ${admin.token}` } });
    expect(((await plan.json()) as { code: string }).code).toBe('free');

    expect(problems.errors.filter((e) => e.startsWith('csp:'))).toEqual([]);
  });
});

test.describe('Stripe card form accessibility', () => {
  // axe is injected as an inline script, which the dashboard's CSP (rightly) forbids.
  test.use({ bypassCSP: true });

  test('the card form has no serious axe violations', async ({ page, request }) => {
    const admin = await registerApiUser(request, newEmail('stripe_axe'));
    const orgId = await newOrganization(request, admin, `Stripe axe ${Date.now().toString(36)}`);
    await signIn(page, admin.email);
    await page.goto(`/orgs/${orgId}/billing`);
    await page.locator('#payment-method').getByRole('button', { name: 'Add payment method' }).click({ timeout: 30_000 });
    const form = page.getByRole('dialog', { name: 'Payment method' });
    await expect(form.getByLabel('Card number')).toBeVisible({ timeout: 30_000 });
    expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
