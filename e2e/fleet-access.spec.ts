import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiAs, organizationWithMember, registerApiUser, type ApiUser } from './support/api';
import { watchPageProblems } from './support/csp';
import { PLATFORM_ADMIN } from './support/outbox';
import { createApplication } from './support/fleets';
import { newEmail, signIn } from './support/users';

/*
 * The application shell /fleets/{id} and its Members and Teams pages (spec 2 §2, §6, §7;
 * spec 1 §6 support-access banner): an organization administrator manages fleet members,
 * invites and team access; a fleet member sees the pages read-only; bad ids redirect.
 */

async function teamAccessCount(request: APIRequestContext, admin: ApiUser, fleetId: number): Promise<number> {
  const rows = await apiAs<{ d: unknown[] }>(request, admin, 'GET', `/v7/team_application_access?$select=id&$filter=grants_access_to__application%20eq%20${fleetId}`);
  return rows.d.length;
}

test('an organization administrator manages fleet members, invites and team access; a member reads them', async ({ page, browser, request }) => {
  const problems = await watchPageProblems(page);
  const stamp = Date.now().toString(36);
  const fleetName = `access-fleet-${stamp}`;
  const admin = await registerApiUser(request, newEmail('fleetadmin'));
  const member = await registerApiUser(request, newEmail('fleetmember'));
  const inviteeEmail = newEmail('fleetinvitee');
  const orgName = `Fleet access E2E ${stamp}`;
  const orgId = await organizationWithMember(request, admin, member, orgName);
  const fleetId = await createApplication(request, admin, orgId, fleetName, 'fleet');
  const blockId = await createApplication(request, admin, orgId, `access-block-${stamp}`, 'block');
  const team = await apiAs<{ id: number }>(request, admin, 'POST', '/v7/team', { name: 'Ops crew', belongs_to__organization: orgId });
  const nightShift = await apiAs<{ id: number }>(request, admin, 'POST', '/v7/team', { name: 'Night shift', belongs_to__organization: orgId });

  // The fleet list links to the application shell; the summary is the default tab.
  await signIn(page, admin.email);
  await page.getByRole('table', { name: 'Fleets' }).getByRole('link', { name: fleetName }).click();
  await expect(page).toHaveURL(new RegExp(`/fleets/${fleetId}$`));
  await expect(page.getByRole('heading', { level: 1, name: fleetName })).toBeVisible();
  const details = page.getByRole('region', { name: 'Details' });
  await expect(details).toContainText(fleetName);
  await expect(details).toContainText('Fleet');
  await expect(details.getByRole('link', { name: orgName })).toHaveAttribute('href', `/orgs/${orgId}`);
  await expect(page.getByRole('link', { name: `Organization: ${orgName}` })).toHaveAttribute('href', `/orgs/${orgId}`);
  await expect(page.getByRole('tab', { name: 'Summary' })).toHaveAttribute('aria-selected', 'true');
  // Not provider staff: no support-access banner.
  await expect(page.getByText(/has not been granted|^Support access granted until /)).toHaveCount(0);

  // Members: add an organization member by username as observer.
  await page.getByRole('tab', { name: 'Members' }).click();
  await expect(page).toHaveURL(new RegExp(`/fleets/${fleetId}/members$`));
  await expect(page.getByText('This fleet has no members of its own yet.')).toBeVisible();
  await expect(page.getByText('No pending invites.')).toBeVisible();
  await page.getByRole('button', { name: 'Add member' }).click();
  let dialog = page.getByRole('dialog', { name: 'Add member' });
  await expect(dialog.getByRole('option', { name: 'Operator' })).toBeEnabled(); // no plans yet: nothing limited
  await dialog.getByLabel('Email or username').fill(member.username);
  await expect(dialog.getByLabel('Message (optional)')).toHaveCount(0);
  await dialog.getByLabel('Role').selectOption({ label: 'Observer' });
  await dialog.getByRole('button', { name: 'Invite' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`${member.username} added to the fleet`)).toBeVisible();
  const members = page.getByRole('table', { name: 'Members' });
  const memberRow = members.getByRole('row', { name: new RegExp(member.username) });
  await expect(memberRow).toContainText('Observer');
  await expect(memberRow.getByRole('link', { name: member.username })).toHaveAttribute('href', new RegExp(`^/orgs/${orgId}/members/\\d+$`));

  // The observer cannot read team access yet.
  const memberContext = await browser.newContext();
  const memberPage = await memberContext.newPage();
  const memberProblems = await watchPageProblems(memberPage);
  await signIn(memberPage, member.email);
  await memberPage.goto(`/fleets/${fleetId}/teams`);
  await expect(memberPage.getByText('unauthorized to view or edit')).toBeVisible();
  await expect(memberPage.getByRole('table', { name: 'Teams' })).toHaveCount(0);

  // Invite an email as developer: listed as pending, refused twice, then revoked.
  await page.getByRole('button', { name: 'Add member' }).click();
  dialog = page.getByRole('dialog', { name: 'Add member' });
  await dialog.getByLabel('Email or username').fill(inviteeEmail);
  await dialog.getByLabel('Role').selectOption({ label: 'Developer' });
  await dialog.getByLabel('Message (optional)').fill('Welcome to the fleet');
  await dialog.getByRole('button', { name: 'Invite' }).click();
  await expect(dialog).toBeHidden();
  const invites = page.getByRole('table', { name: 'Pending invites' });
  await expect(invites.getByRole('row', { name: new RegExp(inviteeEmail) })).toContainText('Developer');
  await page.getByRole('button', { name: 'Add member' }).click();
  dialog = page.getByRole('dialog', { name: 'Add member' });
  await dialog.getByLabel('Email or username').fill(inviteeEmail);
  await dialog.getByLabel('Role').selectOption({ label: 'Developer' });
  await dialog.getByRole('button', { name: 'Invite' }).click();
  await expect(page.getByText('This email address has already been invited to the fleet')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: `Revoke invite for ${inviteeEmail}` }).click();
  await page.getByRole('dialog', { name: 'Revoke invite' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('No pending invites.')).toBeVisible();
  await expect(invites).toHaveCount(0);

  // Change the observer to developer.
  await page.getByRole('button', { name: `Change role of ${member.username}` }).click();
  const roleDialog = page.getByRole('dialog', { name: `Change the role of ${member.username}` });
  await expect(roleDialog.getByLabel('New role')).toHaveValue('observer');
  await roleDialog.getByLabel('New role').selectOption({ label: 'Developer' });
  await roleDialog.getByRole('button', { name: 'Change role' }).click();
  await expect(roleDialog).toBeHidden();
  await expect(memberRow).toContainText('Developer');
  await page.reload();
  await expect(members.getByRole('row', { name: new RegExp(member.username) })).toContainText('Developer');

  // Teams: grant a team operator access, then remove it (at least one selected).
  await page.getByRole('tab', { name: 'Teams' }).click();
  await expect(page).toHaveURL(new RegExp(`/fleets/${fleetId}/teams$`));
  await expect(page.getByText('No team has access to this fleet.')).toBeVisible();
  await page.getByRole('button', { name: 'Add team' }).click();
  const grant = page.getByRole('dialog', { name: 'Give a team access' });
  await grant.getByRole('button', { name: 'Add team' }).click();
  await expect(grant.getByText('no target received')).toBeVisible();
  await grant.getByLabel('Ops crew').check();
  await grant.getByLabel('Access role').selectOption({ label: 'Operator' });
  await grant.getByRole('button', { name: 'Add team' }).click();
  await expect(grant).toBeHidden();
  const teams = page.getByRole('table', { name: 'Teams' });
  const teamRow = teams.getByRole('row', { name: /Ops crew/ });
  await expect(teamRow).toContainText('Operator');
  await expect(teamRow.getByRole('link', { name: 'Ops crew' })).toHaveAttribute('href', `/orgs/${orgId}/teams/${team.id}`);
  expect(await teamAccessCount(request, admin, fleetId)).toBe(1);
  const removeAccess = page.getByRole('button', { name: 'Remove access' });
  await expect(removeAccess).toBeDisabled();
  await page.getByLabel('Select Ops crew').check();
  await removeAccess.click();
  await page.getByRole('dialog', { name: 'Remove access of 1 team' }).getByRole('button', { name: 'Remove access' }).click();
  await expect(page.getByText('No team has access to this fleet.')).toBeVisible();
  await expect(teams).toHaveCount(0);
  expect(await teamAccessCount(request, admin, fleetId)).toBe(0);

  // Another team keeps observer access, for the member's read-only view.
  const observerRole = await apiAs<{ d: { id: number }[] }>(request, admin, 'GET', "/v7/application_membership_role?$select=id&$filter=name%20eq%20'observer'");
  await apiAs(request, admin, 'POST', '/v7/team_application_access', {
    team: nightShift.id,
    grants_access_to__application: fleetId,
    application_membership_role: observerRole.d[0]!.id,
  });

  // The member, now a developer, reads both pages; the controls are disabled with the reason.
  await memberPage.goto(`/fleets/${fleetId}/members`);
  const memberView = memberPage.getByRole('table', { name: 'Members' });
  await expect(memberView.getByRole('row', { name: new RegExp(member.username) })).toContainText('Developer');
  const addMember = memberPage.getByRole('button', { name: 'Add member' });
  await expect(addMember).toBeDisabled();
  await expect(memberPage.getByRole('button', { name: `Change role of ${member.username}` })).toBeDisabled();
  await expect(memberPage.getByRole('button', { name: `Remove ${member.username}` })).toBeDisabled();
  await addMember.locator('..').hover();
  await expect(memberPage.getByRole('tooltip', { name: "You don't have the required permission for this action" })).toBeVisible();
  await expect(memberPage.getByRole('table', { name: 'Pending invites' })).toHaveCount(0);
  await memberPage.getByRole('tab', { name: 'Teams' }).click();
  await expect(memberPage.getByRole('table', { name: 'Teams' }).getByRole('row', { name: /Night shift/ })).toContainText('Observer');
  await expect(memberPage.getByRole('button', { name: 'Add team' })).toBeDisabled();
  await expect(memberPage.getByLabel('Select Night shift')).toHaveCount(0);
  await memberContext.close();
  expect(memberProblems.errors).toEqual([]);

  // A block opened under /fleets/ is rewritten to /blocks/, keeping the sub-path.
  await page.goto(`/fleets/${blockId}/members`);
  await expect(page).toHaveURL(new RegExp(`/blocks/${blockId}/members$`));
  await expect(page.getByRole('tab', { name: 'Members' })).toHaveAttribute('aria-selected', 'true');

  // Bad ids: non-numeric goes up to /fleets with the error; unknown goes to /fleets.
  await page.goto('/fleets/abc');
  await expect(page.getByText('Invalid id passed in url')).toBeVisible();
  await expect(page).toHaveURL(/\/fleets$/);
  await page.goto('/fleets/987654321/members');
  await expect(page).toHaveURL(/\/fleets$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Fleets' })).toBeVisible();
  // The duplicate invite is a 400 the page reports as a toast.
  expect(problems.errors.filter((e) => !/status of 400/.test(e))).toEqual([]);

  // A platform administrator without a role on the fleet (they read everything, issue 19) is
  // told whether support access was granted and that the read is recorded.
  const staffContext = await browser.newContext();
  const staffPage = await staffContext.newPage();
  await signIn(staffPage, PLATFORM_ADMIN.username, PLATFORM_ADMIN.password);
  await staffPage.goto(`/fleets/${fleetId}`);
  await expect(
    staffPage.getByRole('alert').filter({
      hasText: "Support access to this fleet has not been granted. You are viewing it as a platform administrator; your reads are recorded in the organization's staff access log.",
    }),
  ).toBeVisible();
  const until = new Date(Date.now() + 5 * 24 * 3600 * 1000).toISOString();
  await apiAs(request, admin, 'PATCH', `/v7/application(${fleetId})`, { is_accessible_by_support_until__date: until });
  await staffPage.reload();
  await expect(staffPage.getByText(/^Support access granted until /)).toBeVisible();
  await expect(staffPage.getByText('Support access to this fleet has not been granted', { exact: false })).toHaveCount(0);
  await staffContext.close();
});
