import { expect, test } from '@playwright/test';
import { apiAs, registerApiUser } from './support/api';
import { seriousViolations } from './support/axe';
import { arrangeSql } from './support/db';
import { fleetInOrganization } from './support/fleets';
import { supportAgent } from './support/staff';
import { newEmail, signIn } from './support/users';

/*
 * Issue 19 item 2: support access grants decide what a support agent reads. Without a grant
 * the agent gets the refused page (and how the customer grants access); after the customer's
 * administrator grants it in the dialog, the agent reads the fleet; the administrator sees
 * that read in the organization's staff access log.
 */

// axe is injected as an inline script.
test.use({ bypassCSP: true });

test('a support agent is refused a fleet until the customer grants access, and the read shows in the staff access log', async ({ page, request, browser }) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  const customer = await registerApiUser(request, newEmail('supportcustomer'));
  const { id: orgId } = await apiAs<{ id: number }>(request, customer, 'POST', '/v7/organization', { name: `Support Org ${stamp}` });
  const fleetName = `support-fleet-${stamp}`;
  const { fleetId, deviceTypeId } = await fleetInOrganization(request, customer, orgId, fleetName, 'raspberrypi3');
  const deviceUuid = `${stamp}${'0'.repeat(32)}`.slice(0, 32);
  const deviceName = `support-device-${stamp}`;
  await arrangeSql(
    `WITH a AS (INSERT INTO actor DEFAULT VALUES RETURNING id)
     INSERT INTO device (actor, uuid, device_name, belongs_to__application, is_of__device_type) SELECT a.id, $1, $2, $3, $4 FROM a`,
    [deviceUuid, deviceName, fleetId, deviceTypeId],
  );
  const agent = await supportAgent(request, newEmail('supportagent'));

  // The agent, without a grant: the refused page, saying how the customer grants access.
  const agentContext = await browser.newContext();
  const agentPage = await agentContext.newPage();
  await signIn(agentPage, agent.email);
  await agentPage.goto(`/fleets/${fleetId}`);
  await expect(agentPage.getByRole('heading', { level: 1, name: 'Support access not granted' })).toBeVisible({ timeout: 30_000 });
  await expect(agentPage.getByText('Ask the customer to grant support access')).toBeVisible();
  await expect(agentPage.getByRole('heading', { name: fleetName })).toHaveCount(0);
  await agentPage.goto(`/devices/${deviceUuid}`);
  await expect(agentPage.getByText('This device does not exist, or its organization has not granted support access to it or to its fleet')).toBeVisible({ timeout: 30_000 });
  await expect(agentPage.getByRole('heading', { level: 1, name: 'Support access not granted' })).toBeVisible();

  // The customer's administrator grants support access in the dialog (5 days ahead by default).
  await signIn(page, customer.email);
  await page.goto(`/fleets/${fleetId}/settings`);
  const support = page.getByRole('region', { name: 'Support access' });
  await expect(support.getByRole('status')).toHaveText('off', { timeout: 30_000 });
  await support.getByRole('button', { name: 'Grant support access' }).click();
  const grant = page.getByRole('dialog', { name: 'Grant support access' });
  await grant.getByRole('button', { name: 'Grant support access' }).click();
  await expect(grant).toBeHidden();
  await expect(support.getByRole('status')).toContainText('on');

  // The agent now reads the fleet, with the banner naming the expiry.
  await agentPage.goto(`/fleets/${fleetId}`);
  await expect(agentPage.getByRole('heading', { level: 1, name: fleetName })).toBeVisible({ timeout: 30_000 });
  await expect(agentPage.getByText(/Support access granted until/)).toBeVisible();
  // The fleet's grant opens its devices too.
  await agentPage.goto(`/devices/${deviceUuid}`);
  await expect(agentPage.getByRole('heading', { level: 1, name: deviceName })).toBeVisible({ timeout: 30_000 });
  await expect(agentPage.getByText(/Support access granted until/)).toBeVisible();
  await agentContext.close();

  // The administrator sees the agent's read in the organization's audit log (issue 21 grew the staff access log into it).
  await page.goto(`/orgs/${orgId}`);
  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page).toHaveURL(new RegExp(`/orgs/${orgId}/staff-access$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  const log = page.getByRole('table', { name: 'Audit log of this organization' });
  const agentRow = log.getByRole('row').filter({ hasText: agent.username }).filter({ hasText: `/v7/application(${fleetId})` });
  await expect(agentRow.first()).toBeVisible({ timeout: 30_000 });
  await expect(agentRow.first()).toContainText('Support agent');
  expect(await seriousViolations(page)).toEqual([]);

  // A member who is not an administrator is sent back with the reason (the server answers them nothing).
  const member = await registerApiUser(request, newEmail('supportmember'));
  await arrangeSql(
    `INSERT INTO organization_membership ("user", is_member_of__organization, organization_membership_role)
     SELECT $1, $2, id FROM organization_membership_role WHERE name = 'member'`,
    [member.id, orgId],
  );
  const memberLog = await request.get(`/v7/audit_event?$select=id&$filter=organization eq ${orgId}`, { headers: { Authorization: `Bearer ${member.token}` } });
  expect(await memberLog.json()).toEqual({ d: [] });
});
