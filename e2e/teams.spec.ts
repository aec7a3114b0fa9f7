import { expect, test } from '@playwright/test';
import { organizationWithMember, registerApiUser } from './support/api';
import { watchPageProblems } from './support/csp';
import { createFleet } from './support/fleets';
import { newEmail, signIn, submitLogin } from './support/users';

/*
 * Teams (spec 1 §2, §5, §6, §8, §9): /orgs/{orgId}/teams and /orgs/{orgId}/teams/{teamId}.
 * An administrator creates a team, adds an organization member, shares one fleet with
 * developer access; the member sees only that fleet, leaves, and loses it; rename, delete.
 */

test('an administrator shares a fleet through a team; the member sees it until leaving', async ({ page, browser, request }) => {
  // A long journey (two browsers, ~25 s on an idle 2-core machine): the journeys' budget.
  test.setTimeout(120_000);
  const problems = await watchPageProblems(page);
  const stamp = Date.now().toString(36);
  const orgName = `Teams E2E ${stamp}`;
  const sharedFleet = `shared-${stamp}`;
  const privateFleet = `private-${stamp}`;
  const member = await registerApiUser(request, newEmail('teammember'));
  // Adding by username takes someone who already shares an organization with the administrator
  // (issue 11, 1g): the administrator invites the member into another organization first.
  const admin = await registerApiUser(request, newEmail('teamsadmin'));
  await organizationWithMember(request, admin, member, `Teams shared ${stamp}`);
  await signIn(page, admin.email);

  // An organization, with the second user added by username on the members page.
  await page.goto('/orgs');
  await page.getByRole('button', { name: 'Create organization' }).click();
  const orgDialog = page.getByRole('dialog', { name: 'Create organization' });
  await orgDialog.getByLabel('Organization name').fill(orgName);
  await orgDialog.getByRole('button', { name: 'Create organization' }).click();
  await expect(orgDialog).toBeHidden();
  await page.getByRole('table', { name: 'Organizations' }).getByRole('link', { name: orgName }).click();
  await expect(page).toHaveURL(/\/orgs\/\d+$/);
  const orgId = /\/orgs\/(\d+)$/.exec(page.url())![1]!;
  await page.getByRole('link', { name: 'Manage members' }).click();
  await page.getByRole('button', { name: 'Invite member' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite member' });
  await invite.getByLabel('Email or username').fill(member.username);
  await invite.getByLabel('Role').selectOption({ label: 'Member' });
  await invite.getByRole('button', { name: 'Invite' }).click();
  await expect(invite).toBeHidden();
  await expect(page.getByRole('table', { name: 'Members' })).toContainText(member.username);

  // Two fleets in that organization; only one will be shared.
  await createFleet(page, orgName, sharedFleet);
  await createFleet(page, orgName, privateFleet);

  // Bad ids in the URL go up one level with an error.
  await page.goto(`/orgs/${orgId}/teams/abc`);
  await expect(page.getByText('Invalid id passed in url')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/orgs/${orgId}/teams$`));

  // The teams page, from the organization summary; create a team (names unique).
  await page.goto(`/orgs/${orgId}`);
  await page.getByRole('link', { name: 'Manage teams' }).click();
  await expect(page).toHaveURL(new RegExp(`/orgs/${orgId}/teams$`));
  await expect(page.getByText('This organization has no teams yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Create team' }).click();
  const create = page.getByRole('dialog', { name: 'Create team' });
  await create.getByRole('button', { name: 'Create team' }).click();
  await expect(create.getByText('Enter a team name')).toBeVisible();
  await create.getByLabel('Team name').fill('Field crew');
  await create.getByRole('button', { name: 'Create team' }).click();
  await expect(create).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/orgs/${orgId}/teams/\\d+$`));
  const teamUrl = new URL(page.url()).pathname;
  await expect(page.getByRole('heading', { level: 1, name: 'Field crew' })).toBeVisible();
  await expect(page.getByText('Created on')).toBeVisible();

  await page.goto(`/orgs/${orgId}/teams`);
  await page.getByRole('button', { name: 'Create team' }).click();
  await create.getByLabel('Team name').fill('FIELD CREW');
  await create.getByRole('button', { name: 'Create team' }).click();
  await expect(create.getByText('This name is already used')).toBeVisible();
  await create.getByRole('button', { name: 'Cancel' }).click();
  const teams = page.getByRole('table', { name: 'Teams' });
  await expect(teams.getByRole('row')).toHaveCount(2);
  await teams.getByRole('link', { name: 'Field crew' }).click();

  // Add the member (at least one selection).
  await page.getByRole('tab', { name: 'Members' }).click();
  await expect(page).toHaveURL(new RegExp(`${teamUrl}/members$`));
  await page.getByRole('button', { name: 'Add members' }).click();
  const add = page.getByRole('dialog', { name: 'Add members to the team' });
  await add.getByRole('button', { name: 'Add members' }).click();
  await expect(add.getByText('Select at least one member')).toBeVisible();
  await add.getByLabel(member.username).check();
  await add.getByRole('button', { name: 'Add members' }).click();
  await expect(add).toBeHidden();
  await expect(page.getByText('member added')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Members' })).toContainText(member.username);

  // Assign the shared fleet with developer access.
  await page.getByRole('tab', { name: 'Fleets' }).click();
  await page.getByRole('button', { name: 'Assign Fleets' }).click();
  const assign = page.getByRole('dialog', { name: 'Assign Fleets to the team' });
  await assign.getByRole('button', { name: 'Assign' }).click();
  await expect(assign.getByText('no target received')).toBeVisible();
  await assign.getByLabel(sharedFleet).check();
  await assign.getByLabel('Access role').selectOption({ label: 'Developer' });
  await assign.getByRole('button', { name: 'Assign' }).click();
  await expect(assign).toBeHidden();
  await expect(page.getByText('resources added to team')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Fleets' }).getByRole('row').filter({ hasText: sharedFleet })).toContainText('Developer');

  // The summary groups fleets by access role; the teams list counts.
  await page.getByRole('tab', { name: 'Summary' }).click();
  const fleetsCard = page.getByRole('region', { name: 'Fleets' });
  await expect(fleetsCard.getByRole('list', { name: 'Developer' })).toContainText(sharedFleet);
  await expect(page.getByRole('region', { name: 'Members' })).toContainText(member.username);
  await page.getByRole('link', { name: 'Back to teams' }).click();
  await expect(teams.getByRole('row').filter({ hasText: 'Field crew' })).toContainText(/Field crew\s*1\s*1/);

  // The member summary, from the members page: the team, and the fleet through it.
  await page.goto(`/orgs/${orgId}/members`);
  await page.getByRole('table', { name: 'Members' }).getByRole('link', { name: member.username }).click();
  await expect(page).toHaveURL(new RegExp(`/orgs/${orgId}/members/\\d+$`));
  await expect(page.getByRole('heading', { level: 1, name: member.username })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Member details' })).toContainText('Member');
  await expect(page.getByRole('region', { name: 'Teams' })).toContainText('Field crew');
  await expect(page.getByRole('region', { name: 'Fleets' }).getByRole('list', { name: 'Developer' })).toContainText(
    `${sharedFleet} (through team Field crew)`,
  );
  await expect(page.getByRole('region', { name: 'Fleets' })).not.toContainText(privateFleet);
  await page.goto(`/orgs/${orgId}/members/xyz`);
  await expect(page.getByText('Invalid id passed in url')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/orgs/${orgId}/members$`));

  // The member, in a second browser, sees only the shared fleet.
  const memberContext = await browser.newContext();
  const memberPage = await memberContext.newPage();
  await memberPage.goto('/login');
  await submitLogin(memberPage, member.email);
  await expect(memberPage).toHaveURL(/\/fleets$/);
  const memberFleets = memberPage.getByRole('table', { name: 'Fleets' });
  await expect(memberFleets).toContainText(sharedFleet);
  await expect(memberFleets).not.toContainText(privateFleet);

  // The member sees the team read-only and leaves it.
  await memberPage.goto(teamUrl);
  await expect(memberPage.getByRole('heading', { level: 1, name: 'Field crew' })).toBeVisible();
  await expect(memberPage.getByRole('button', { name: 'Delete team' })).toHaveCount(0);
  await memberPage.getByRole('button', { name: 'Leave team' }).click();
  await memberPage.getByRole('dialog', { name: 'Leave team' }).getByRole('button', { name: 'Leave team' }).click();
  await expect(memberPage.getByText('team membership deleted')).toBeVisible();
  await expect(memberPage).toHaveURL(new RegExp(`/orgs/${orgId}/teams$`));
  await memberPage.goto('/fleets');
  await expect(memberPage.getByRole('heading', { name: 'Fleets', exact: true })).toBeVisible();
  await expect(memberPage.getByText(sharedFleet)).toHaveCount(0);
  await memberContext.close();

  // Remove access (at least one selected; confirm) and a member.
  await page.goto(`${teamUrl}/fleets`);
  const removeAccess = page.getByRole('button', { name: 'Remove access' });
  await expect(removeAccess).toBeDisabled();
  await page.getByRole('checkbox', { name: `Select ${sharedFleet}` }).check();
  await removeAccess.click();
  await page.getByRole('dialog', { name: 'Remove access' }).getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('access removed')).toBeVisible();
  await expect(page.getByText('This team has no access to fleets.')).toBeVisible();
  await page.getByRole('tab', { name: 'Members' }).click();
  // The add dialog lists only organization users not yet in the team.
  await page.getByRole('button', { name: 'Add members' }).click();
  const addAgain = page.getByRole('dialog', { name: 'Add members to the team' });
  await expect(addAgain.getByRole('checkbox')).toHaveCount(2); // the member left; the admin never joined
  await addAgain.getByLabel(member.username).check();
  await addAgain.getByRole('button', { name: 'Add members' }).click();
  await expect(addAgain).toBeHidden();
  await expect(page.getByRole('table', { name: 'Members' })).toContainText(member.username);
  await page.getByRole('button', { name: 'Add members' }).click();
  await expect(addAgain.getByRole('checkbox')).toHaveCount(1);
  await expect(addAgain.getByLabel(member.username)).toHaveCount(0);
  await addAgain.getByRole('checkbox').check();
  await addAgain.getByRole('button', { name: 'Add members' }).click();
  await expect(addAgain).toBeHidden();
  await expect(page.getByRole('table', { name: 'Members' }).getByRole('row')).toHaveCount(3);
  await page.getByRole('checkbox', { name: 'Select all Members' }).check();
  await page.getByRole('button', { name: 'Remove selected members' }).click();
  await page.getByRole('dialog', { name: 'Remove 2 members' }).getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('2 members removed')).toBeVisible();
  await expect(page.getByText('This team has no members.')).toBeVisible();

  // Rename (defaults to the current name), then delete.
  await page.goto(teamUrl);
  await page.getByRole('button', { name: 'Rename team' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename team' });
  await expect(rename.getByLabel('Team name')).toHaveValue('Field crew');
  await rename.getByLabel('Team name').fill('Night crew');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(rename).toBeHidden();
  await expect(page.getByText('renamed', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Night crew' })).toBeVisible();
  await page.getByRole('button', { name: 'Delete team' }).click();
  await page.getByRole('dialog', { name: 'Delete team' }).getByRole('button', { name: 'Delete team' }).click();
  await expect(page.getByText('team deleted')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/orgs/${orgId}/teams$`));
  await expect(page.getByText('This organization has no teams yet.')).toBeVisible();

  // The duplicate team name is a 409 the browser logs.
  expect(problems.errors.filter((e) => !/status of 409/.test(e))).toEqual([]);
});
