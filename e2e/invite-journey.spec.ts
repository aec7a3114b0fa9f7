import { expect, test } from '@playwright/test';
import { watchPageProblems } from './support/csp';
import { createFleet } from './support/fleets';
import { latestMailTo, linkPath } from './support/outbox';
import { newEmail, PASSWORD, signUp } from './support/users';

/*
 * Issue 3's journey, in one scenario and only through the dashboard: an administrator
 * invites a new user by email; the user signs up from the mail and accepts; is added to a
 * team with developer access to one fleet; sees that fleet and not another; the
 * administrator's batch role change takes effect (an organization administrator sees every
 * fleet); the last administrator cannot be removed.
 */
test('invite by email → sign up from the mail → team access → batch role change → last administrator kept', async ({ page, browser, request }) => {
  const problems = await watchPageProblems(page);
  const stamp = Date.now().toString(36);
  const orgName = `Journey ${stamp}`;
  const sharedFleet = `journey-shared-${stamp}`;
  const otherFleet = `journey-other-${stamp}`;
  const inviteeEmail = newEmail('journey');
  await signUp(page, newEmail('journeyadmin'));

  // The administrator's organization and two fleets.
  await page.goto('/orgs');
  await page.getByRole('button', { name: 'Create organization' }).click();
  const orgDialog = page.getByRole('dialog', { name: 'Create organization' });
  await orgDialog.getByLabel('Organization name').fill(orgName);
  await orgDialog.getByRole('button', { name: 'Create organization' }).click();
  await expect(orgDialog).toBeHidden();
  await createFleet(page, orgName, sharedFleet);
  await createFleet(page, orgName, otherFleet);

  // Invite the new user by email, as a member.
  await page.goto('/orgs');
  await page.getByRole('table', { name: 'Organizations' }).getByRole('link', { name: orgName }).click();
  await page.getByRole('link', { name: 'Manage members' }).click();
  await expect(page).toHaveURL(/\/orgs\/\d+\/members$/);
  const orgPath = new URL(page.url()).pathname.replace(/\/members$/, '');
  await page.getByRole('button', { name: 'Invite member' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite member' });
  await invite.getByLabel('Email or username').fill(inviteeEmail);
  await invite.getByLabel('Role').selectOption({ label: 'Member' });
  await invite.getByLabel('Message (optional)').fill('Join the field team');
  await invite.getByRole('button', { name: 'Invite' }).click();
  await expect(invite).toBeHidden();
  await expect(page.getByRole('table', { name: 'Pending invites' })).toContainText(inviteeEmail);

  // The invitee opens the mailed link in their own browser, signs up, and is a member.
  const mail = await latestMailTo(request, inviteeEmail);
  expect(mail.text_body).toContain('Join the field team');
  const inviteeContext = await browser.newContext();
  const invitee = await inviteeContext.newPage();
  await invitee.goto(linkPath(mail.text_body, '/organization/invitation/'));
  await expect(invitee).toHaveURL(/\/login$/);
  await invitee.getByRole('link', { name: 'Create an account' }).click();
  // The sign-in form has an Email field too: fill only once the sign-up form is there.
  await expect(invitee.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await invitee.getByLabel('Email').fill(inviteeEmail);
  await invitee.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await invitee.getByLabel('Confirm password').fill(PASSWORD);
  await invitee.getByRole('button', { name: 'Sign up' }).click();
  await expect(invitee.getByText(`You joined ${orgName}`)).toBeVisible();
  // A plain member sees no fleet of the organization yet.
  await invitee.goto('/fleets');
  await expect(invitee.getByRole('heading', { name: 'Fleets', exact: true })).toBeVisible();
  await expect(invitee.getByText(sharedFleet)).toHaveCount(0);
  await expect(invitee.getByText(otherFleet)).toHaveCount(0);

  // The administrator sees the new member, creates a team, adds them, shares one fleet.
  await page.reload();
  const members = page.getByRole('table', { name: 'Members' });
  const inviteeRow = members.getByRole('row').filter({ hasNotText: '(you)' }).filter({ hasText: 'Member' });
  await expect(inviteeRow).toHaveCount(1);
  const inviteeUsername = (await inviteeRow.getByRole('link').first().textContent())!.trim();
  await page.goto(`${orgPath}/teams`);
  await page.getByRole('button', { name: 'Create team' }).click();
  const create = page.getByRole('dialog', { name: 'Create team' });
  await create.getByLabel('Team name').fill('Developers');
  await create.getByRole('button', { name: 'Create team' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Developers' })).toBeVisible();
  await page.getByRole('tab', { name: 'Members' }).click();
  await page.getByRole('button', { name: 'Add members' }).click();
  const add = page.getByRole('dialog', { name: 'Add members to the team' });
  await add.getByLabel(inviteeUsername).check();
  await add.getByRole('button', { name: 'Add members' }).click();
  await expect(add).toBeHidden();
  await page.getByRole('tab', { name: 'Fleets' }).click();
  await page.getByRole('button', { name: 'Assign Fleets' }).click();
  const assign = page.getByRole('dialog', { name: 'Assign Fleets to the team' });
  await assign.getByLabel(sharedFleet).check();
  await assign.getByLabel('Access role').selectOption({ label: 'Developer' });
  await assign.getByRole('button', { name: 'Assign' }).click();
  await expect(assign).toBeHidden();
  await expect(page.getByRole('table', { name: 'Fleets' }).getByRole('row').filter({ hasText: sharedFleet })).toContainText('Developer');

  // The invitee now sees the shared fleet, and not the other one.
  await invitee.goto('/fleets');
  const inviteeFleets = invitee.getByRole('table', { name: 'Fleets' });
  await expect(inviteeFleets).toContainText(sharedFleet);
  await expect(inviteeFleets).not.toContainText(otherFleet);

  // The only administrator cannot be removed.
  await page.goto(`${orgPath}/members`);
  const meRow = members.getByRole('row').filter({ hasText: '(you)' });
  await meRow.getByRole('button', { name: /^Delete membership of / }).click();
  await page.getByRole('dialog', { name: 'Delete membership' }).getByRole('button', { name: 'Delete membership' }).click();
  await expect(page.getByText('The last administrator of an organization cannot leave it')).toBeVisible();
  await expect(members.getByRole('row')).toHaveCount(3);

  // Batch role change: the invitee becomes an administrator…
  await inviteeRow.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Change role' }).click();
  const roles = page.getByRole('dialog', { name: 'Change the role of 1 member' });
  await roles.getByLabel('New role').selectOption({ label: 'Administrator' });
  await roles.getByRole('button', { name: 'Change role' }).click();
  await expect(roles).toBeHidden();
  await expect(members.getByRole('row').filter({ hasText: inviteeUsername })).toContainText('Administrator');

  // …and it takes effect: an organization administrator sees every fleet.
  await invitee.goto('/fleets');
  await expect(inviteeFleets).toContainText(sharedFleet);
  await expect(inviteeFleets).toContainText(otherFleet);
  await inviteeContext.close();

  expect(problems.errors.filter((e) => !/status of (400|404)/.test(e))).toEqual([]);
});
