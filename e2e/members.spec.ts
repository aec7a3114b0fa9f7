import { expect, test, type Page } from '@playwright/test';
import { apiAs, organizationWithMember, registerApiUser, type V7 } from './support/api';
import { watchPageProblems } from './support/csp';
import { organizationWithFleet } from './support/fleets';
import { latestMailTo, linkPath } from './support/outbox';
import { newEmail, PASSWORD, signUp, submitLogin } from './support/users';

/*
 * The members page /orgs/{orgId}/members and the invitation accept route (spec 1 §2, §4,
 * §5, §8, §9): invite by email, accept through login → signup with the return URL kept,
 * last-administrator refusal, batch role change, revoke.
 */

async function inviteFromDialog(page: Page, invitee: string, roleOption: string, message?: string) {
  await page.getByRole('button', { name: 'Invite member' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite member' });
  await dialog.getByLabel('Email or username').fill(invitee);
  await dialog.getByLabel('Role').selectOption({ label: roleOption });
  if (message !== undefined) await dialog.getByLabel('Message (optional)').fill(message);
  await dialog.getByRole('button', { name: 'Invite' }).click();
  return dialog;
}

test('an administrator invites by email, the invitee signs up and joins, then roles and invites are managed', async ({ page, browser, request }) => {
  const problems = await watchPageProblems(page);
  const orgName = `Members E2E ${Date.now().toString(36)}`;
  const inviteeEmail = newEmail('invitee');
  const otherEmail = newEmail('revoked');
  await signUp(page, newEmail('membersadmin'));

  // Create an organization and open its members page from the summary.
  await page.goto('/orgs');
  await page.getByRole('button', { name: 'Create organization' }).click();
  const createDialog = page.getByRole('dialog', { name: 'Create organization' });
  await createDialog.getByLabel('Organization name').fill(orgName);
  await createDialog.getByRole('button', { name: 'Create organization' }).click();
  await expect(createDialog).toBeHidden();
  await page.getByRole('table', { name: 'Organizations' }).getByRole('link', { name: orgName }).click();
  await page.getByRole('link', { name: 'Manage members' }).click();
  await expect(page).toHaveURL(/\/orgs\/\d+\/members$/);
  const orgId = /\/orgs\/(\d+)\/members/.exec(page.url())![1]!;
  await expect(page.getByRole('heading', { level: 1, name: `${orgName} members` })).toBeVisible();
  const members = page.getByRole('table', { name: 'Members' });
  await expect(members.getByRole('row')).toHaveCount(2); // header + me
  await expect(members).toContainText('(you)');
  await expect(members).toContainText('Administrator');
  await expect(page.getByText('No pending invites.')).toBeVisible();

  // The invite dialog: no seat prices on an installation without billing (issue 11), a
  // required role, email validation.
  await page.getByRole('button', { name: 'Invite member' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite member' });
  await expect(dialog.getByRole('option', { name: 'Member', exact: true })).toBeAttached();
  await expect(dialog.getByRole('option', { name: 'Administrator', exact: true })).toBeAttached();
  await expect(dialog.getByLabel('Role')).not.toContainText('$');
  await dialog.getByLabel('Email or username').fill('not-an-email@');
  await dialog.getByRole('button', { name: 'Invite' }).click();
  await expect(dialog.getByText('Enter a valid email address')).toBeVisible();
  await expect(dialog.getByText('Choose a role')).toHaveCount(2); // placeholder option + error
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  // Two email invites as member; inviting the same address twice is refused.
  await expect(await inviteFromDialog(page, inviteeEmail, 'Member', 'Welcome aboard')).toBeHidden();
  await expect(page.getByText(`Invitation sent to ${inviteeEmail}`)).toBeVisible();
  await expect(await inviteFromDialog(page, otherEmail, 'Member')).toBeHidden();
  const invites = page.getByRole('table', { name: 'Pending invites' });
  await expect(invites.getByRole('row')).toHaveCount(3);
  await expect(invites).toContainText(inviteeEmail);
  await expect(invites).toContainText(otherEmail);
  const again = await inviteFromDialog(page, inviteeEmail, 'Member');
  await expect(page.getByText('This email address has already been invited to the organization')).toBeVisible();
  await again.getByRole('button', { name: 'Cancel' }).click();

  // The invitation mail, read from the outbox as the platform administrator.
  const mail = await latestMailTo(request, inviteeEmail);
  const acceptPath = linkPath(mail.text_body, '/organization/invitation/');

  // The invitee (a fresh browser) opens the link: login, then signup, then back to accept.
  const inviteeContext = await browser.newContext();
  const invitee = await inviteeContext.newPage();
  const inviteeProblems = await watchPageProblems(invitee);
  await invitee.goto(acceptPath);
  await expect(invitee).toHaveURL(/\/login$/);
  await invitee.getByRole('link', { name: 'Create an account' }).click();
  // The sign-in form has an Email field too: fill only once the sign-up form is there.
  await expect(invitee.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await invitee.getByLabel('Email').fill(inviteeEmail);
  await invitee.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await invitee.getByLabel('Confirm password').fill(PASSWORD);
  await invitee.getByRole('button', { name: 'Sign up' }).click();
  await expect(invitee.getByText(`You joined ${orgName}`)).toBeVisible();
  await expect(invitee).toHaveURL(/\/orgs$/);
  await expect(invitee.getByRole('table', { name: 'Organizations' }).getByRole('link', { name: orgName })).toBeVisible();

  // A used token is refused with an explanation and a way home.
  await invitee.goto(acceptPath);
  await expect(invitee.getByRole('heading', { name: 'This invitation could not be accepted' })).toBeVisible();
  await expect(invitee.getByText('This invitation does not exist or has already been used. Ask for a new one.')).toBeVisible();
  await invitee.getByRole('button', { name: 'Go home' }).click();
  await expect(invitee).toHaveURL(/\/fleets$/);
  expect(inviteeProblems.errors.filter((e) => !e.includes('404'))).toEqual([]);
  await inviteeContext.close();

  // Back to the administrator: the new member is listed, the used invite is gone.
  await page.reload();
  await expect(members.getByRole('row')).toHaveCount(3);
  const newMemberRow = members.getByRole('row').filter({ hasNotText: '(you)' }).filter({ hasText: 'Member' });
  await expect(newMemberRow).toHaveCount(1);
  await expect(invites.getByRole('row')).toHaveCount(2);
  await expect(invites).not.toContainText(inviteeEmail);

  // The only administrator cannot delete their own membership.
  const meRow = members.getByRole('row').filter({ hasText: '(you)' });
  await meRow.getByRole('button', { name: /^Delete membership of / }).click();
  const deleteDialog = page.getByRole('dialog', { name: 'Delete membership' });
  await deleteDialog.getByRole('button', { name: 'Delete membership' }).click();
  await expect(page.getByText('The last administrator of an organization cannot leave it')).toBeVisible();
  await expect(deleteDialog).toBeHidden();
  await expect(members.getByRole('row')).toHaveCount(3);

  // Batch role change: the new member becomes an administrator.
  const changeRole = page.getByRole('button', { name: 'Change role' });
  await expect(changeRole).toBeDisabled();
  await newMemberRow.getByRole('checkbox').check();
  await changeRole.click();
  const rolesDialog = page.getByRole('dialog', { name: 'Change the role of 1 member' });
  await rolesDialog.getByLabel('New role').selectOption({ label: 'Administrator' });
  await rolesDialog.getByRole('button', { name: 'Change role' }).click();
  await expect(rolesDialog).toBeHidden();
  await expect(page.getByText('Role changed')).toBeVisible();
  await expect(members.getByRole('row').filter({ hasNotText: '(you)' }).filter({ hasText: 'Administrator' })).toHaveCount(1);

  // Revoke the other pending invite (select it, batch revoke, confirm).
  await invites.getByRole('checkbox', { name: `Select invite for ${otherEmail}` }).check();
  await page.getByRole('button', { name: 'Revoke selected' }).click();
  const revokeDialog = page.getByRole('dialog', { name: 'Revoke invite' });
  await revokeDialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('Invite revoked')).toBeVisible();
  await expect(page.getByText('No pending invites.')).toBeVisible();

  // Now that there are two administrators, deleting my own membership works.
  await meRow.getByRole('button', { name: /^Delete membership of / }).click();
  await page.getByRole('dialog', { name: 'Delete membership' }).getByRole('button', { name: 'Delete membership' }).click();
  await expect(page.getByText('member successfully deleted')).toBeVisible();
  await expect(page).toHaveURL(/\/orgs$/);

  // A non-numeric id is refused like on the summary.
  await page.goto(`/orgs/${orgId}x/members`);
  await expect(page.getByText('Invalid id passed in url')).toBeVisible();
  await expect(page).toHaveURL(/\/orgs$/);

  expect(problems.errors.filter((e) => !/status of (400|404)/.test(e))).toEqual([]);
});

test('an existing user is added by username; members see no controls; an invite for another address is refused', async ({ page, browser, request }) => {
  const orgName = `Members2 E2E ${Date.now().toString(36)}`;
  const admin = await registerApiUser(request, newEmail('members2admin'));
  const existing = await registerApiUser(request, newEmail('members2user'));
  // By username only someone who already shares an organization with the administrator (issue 11, 1g).
  await organizationWithMember(request, admin, existing, `${orgName} shared`);
  const { id: orgId } = await apiAs<{ id: number }>(request, admin, 'POST', '/v7/organization', { name: orgName });

  await page.goto('/login');
  await submitLogin(page, admin.email);
  await expect(page).toHaveURL(/\/fleets$/);
  await page.goto(`/orgs/${orgId}/members`);
  const members = page.getByRole('table', { name: 'Members' });
  await expect(members.getByRole('row')).toHaveCount(2);

  // No @: added directly by username, no message field.
  await page.getByRole('button', { name: 'Invite member' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite member' });
  await dialog.getByLabel('Email or username').fill(existing.username);
  await expect(dialog.getByLabel('Message (optional)')).toHaveCount(0);
  await dialog.getByLabel('Role').selectOption({ label: 'Member' });
  await dialog.getByRole('button', { name: 'Invite' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('member added')).toBeVisible();
  await expect(members.getByRole('row')).toHaveCount(3);
  await expect(members).toContainText(existing.username);

  // Inviting an existing member's email is refused with its English text.
  await page.getByRole('button', { name: 'Invite member' }).click();
  await dialog.getByLabel('Email or username').fill(existing.email);
  await dialog.getByLabel('Role').selectOption({ label: 'Member' });
  await dialog.getByRole('button', { name: 'Invite' }).click();
  await expect(page.getByText('This user is already a member of the organization')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // An invite for a third address, opened by the existing member: 403, explained.
  const stranger = newEmail('members2stranger');
  await page.getByRole('button', { name: 'Invite member' }).click();
  await dialog.getByLabel('Email or username').fill(stranger);
  await dialog.getByLabel('Role').selectOption({ label: 'Administrator' });
  await dialog.getByRole('button', { name: 'Invite' }).click();
  await expect(dialog).toBeHidden();
  const acceptPath = linkPath((await latestMailTo(request, stranger)).text_body, '/organization/invitation/');

  const memberContext = await browser.newContext();
  const member = await memberContext.newPage();
  await member.goto('/login');
  await submitLogin(member, existing.email);
  await expect(member).toHaveURL(/\/fleets$/);

  // A member sees the list without the administrator controls or the invites.
  await member.goto(`/orgs/${orgId}/members`);
  const memberView = member.getByRole('table', { name: 'Members' });
  await expect(memberView.getByRole('row')).toHaveCount(3);
  await expect(memberView.getByRole('row').filter({ hasText: '(you)' })).toContainText('Member');
  await expect(member.getByText('Only administrators of this organization can invite, remove members or change their roles.')).toBeVisible();
  for (const name of ['Invite member', 'Change role', 'Revoke selected']) await expect(member.getByRole('button', { name })).toHaveCount(0);
  await expect(memberView.getByRole('checkbox')).toHaveCount(0);
  await expect(member.getByRole('table', { name: 'Pending invites' })).toHaveCount(0);

  await member.goto(acceptPath);
  await expect(member.getByRole('heading', { name: 'This invitation could not be accepted' })).toBeVisible();
  await expect(member.getByText(/sent to another e-mail address/)).toBeVisible();
  await memberContext.close();
});

test("an organization administrator's member summary lists every fleet of the organization at the administrator role", async ({ page, request }) => {
  const stamp = Date.now().toString(36);
  const admin = await registerApiUser(request, newEmail('summaryadmin'));
  const orgName = `Admin summary ${stamp}`;
  const { fleetId } = await organizationWithFleet(request, admin, orgName, `adminfleet_${stamp}`, 'raspberrypi4-64');
  const fleet = await apiAs<V7<'application', 'organization'>>(request, admin, 'GET', `/v7/application(${fleetId})?$select=organization`);
  const orgId = fleet.d[0]!.organization.__id;
  const mine = await apiAs<V7<'organization_membership', 'id'>>(
    request,
    admin,
    'GET',
    `/v7/organization_membership?$select=id&$filter=${encodeURIComponent(`is_member_of__organization eq ${orgId} and user eq ${admin.id}`)}`,
  );
  await page.goto('/login');
  await submitLogin(page, admin.email);
  await expect(page).toHaveURL(/\/fleets$/);
  await page.goto(`/orgs/${orgId}/members/${mine.d[0]!.id}/fleets`);
  const card = page.getByRole('region', { name: 'Fleets' });
  await expect(card).toBeVisible();
  await expect(card).not.toContainText('No access to fleets');
  await expect(card.getByRole('list', { name: 'Administrator' })).toContainText(`adminfleet_${stamp}`);
});
