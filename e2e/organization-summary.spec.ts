import { expect, test } from '@playwright/test';
import { organizationWithMember, registerApiUser } from './support/api';
import { watchPageProblems } from './support/csp';
import { solidPng } from './support/images';
import { newEmail, signUp, submitLogin } from './support/users';

/*
 * Issue 3, item 2: the organization summary at /orgs/{orgId} (spec 1 §2 "Organization
 * summary", §5, §8, §9) — open it from /orgs, rename, change the logo, the sole
 * administrator cannot leave, delete by typing the name; bad and unknown ids.
 */

test('an administrator opens an organization from /orgs, renames it, sets a logo and deletes it', async ({ page }) => {
  const problems = await watchPageProblems(page);
  const stamp = Date.now().toString(36);
  const orgName = `Summary E2E ${stamp}`;
  const newName = `Renamed E2E ${stamp}`;
  await signUp(page, newEmail('orgsummary'));

  // Create an organization on /orgs and open it from the table.
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Organizations' }).click();
  await page.getByRole('button', { name: 'Create organization' }).click();
  const createDialog = page.getByRole('dialog', { name: 'Create organization' });
  await createDialog.getByLabel('Organization name').fill(orgName);
  await createDialog.getByRole('button', { name: 'Create organization' }).click();
  await expect(createDialog).toBeHidden();
  await page.getByRole('table', { name: 'Organizations' }).getByRole('link', { name: orgName }).click();
  await expect(page).toHaveURL(/\/orgs\/\d+$/);

  // The summary: name, handle, created date, role, members and fleets.
  await expect(page.getByRole('heading', { level: 1, name: orgName })).toBeVisible();
  const details = page.getByRole('region', { name: 'Organization details' });
  await expect(details).toContainText('Handle');
  await expect(details).toContainText(`summary_e2e_${stamp}`);
  await expect(details).toContainText('Created');
  await expect(details).toContainText(String(new Date().getFullYear()));
  await expect(details).toContainText('Administrator');
  const members = page.getByRole('list', { name: 'Members' });
  await expect(members.getByRole('listitem')).toHaveCount(1);
  await expect(members).toContainText('(you)');
  await expect(members).toContainText('Administrator');
  await expect(page.getByRole('region', { name: 'Fleets' })).toContainText('This organization has no fleets you can see.');

  // Rename: the dialog starts with the current name.
  await page.getByRole('button', { name: 'Rename' }).click();
  const renameDialog = page.getByRole('dialog', { name: 'Rename organization' });
  await expect(renameDialog.getByLabel('Organization name')).toHaveValue(orgName);
  await renameDialog.getByLabel('Organization name').fill(newName);
  await renameDialog.getByRole('button', { name: 'Rename' }).click();
  await expect(renameDialog).toBeHidden();
  await expect(page.getByText('Organization renamed')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: newName })).toBeVisible();

  // Logo: no image yet; a gif is refused in the browser, a png is uploaded and shown.
  const logo = page.getByRole('img', { name: `${newName} logo` });
  await expect(logo).toHaveCount(0);
  await page.getByRole('button', { name: 'Change logo' }).click();
  const logoDialog = page.getByRole('dialog', { name: 'Organization logo' });
  await logoDialog.getByRole('button', { name: 'Upload logo' }).click();
  await expect(logoDialog.getByText('Choose an image')).toBeVisible();
  await logoDialog.getByLabel('Logo image').setInputFiles({ name: 'logo.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
  await expect(logoDialog.getByText('The logo must be a png or jpeg image')).toBeVisible();
  const png = solidPng(16);
  await logoDialog.getByLabel('Logo image').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
  await expect(logoDialog.getByRole('img', { name: 'Preview of the new logo' })).toBeVisible();
  await logoDialog.getByRole('button', { name: 'Upload logo' }).click();
  await expect(logoDialog).toBeHidden();
  await expect(page.getByText('Logo updated')).toBeVisible();
  await expect(logo).toHaveAttribute('src', `data:image/png;base64,${png.toString('base64')}`);

  // The sole administrator cannot leave; the reason is on the page.
  const leave = page.getByRole('button', { name: 'Leave organization' });
  await expect(leave).toBeDisabled();
  await expect(page.getByText('The last administrator of an organization cannot leave it')).toBeVisible();
  await expect(leave).toHaveAccessibleDescription('The last administrator of an organization cannot leave it');

  // Delete: the exact name must be typed.
  await page.getByRole('button', { name: 'Delete organization' }).click();
  const deleteDialog = page.getByRole('dialog', { name: 'Delete organization' });
  const confirm = deleteDialog.getByRole('button', { name: 'Delete organization' });
  await expect(deleteDialog.getByText('All fields must be filled out to proceed')).toBeVisible();
  await expect(confirm).toBeDisabled();
  await deleteDialog.getByLabel('Type the organization name to confirm').fill(newName.slice(0, -1));
  await expect(confirm).toBeDisabled();
  await deleteDialog.getByLabel('Type the organization name to confirm').fill(newName);
  await confirm.click();
  await expect(page).toHaveURL(/\/orgs$/);
  await expect(page.getByText(`Organization ${newName} deleted`)).toBeVisible();
  // (Sign-up may have made a personal organization, so the table can still have rows.)
  const orgList = page.getByRole('table', { name: 'Organizations' }).or(page.getByText('You are not a member of any organization.'));
  await expect(orgList).toBeVisible();
  await expect(page.getByRole('link', { name: newName })).toHaveCount(0);

  expect(problems.errors).toEqual([]);
});

test('/orgs/abc says "Invalid id passed in url" and goes up to /orgs; an unknown id goes to /orgs too', async ({ page }) => {
  await signUp(page, newEmail('orgbadid'));

  await page.goto('/orgs/abc');
  await expect(page.getByText('Invalid id passed in url')).toBeVisible();
  await expect(page).toHaveURL(/\/orgs$/);

  await page.goto('/orgs/987654321');
  await expect(page.getByText('Organization not found')).toBeVisible();
  await expect(page).toHaveURL(/\/orgs$/);
});

test('a member sees the summary without the administrator actions and leaves the organization', async ({ page, request }) => {
  const orgName = `Member E2E ${Date.now().toString(36)}`;
  const admin = await registerApiUser(request, newEmail('orgadmin'));
  const member = await registerApiUser(request, newEmail('orgmember'));
  const orgId = await organizationWithMember(request, admin, member, orgName);

  await page.goto('/login');
  await submitLogin(page, member.email);
  await expect(page).toHaveURL(/\/fleets$/);
  await page.goto(`/orgs/${orgId}`);
  await expect(page.getByRole('heading', { level: 1, name: orgName })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Organization details' })).toContainText('Member');

  // Both members, with their roles; another member's username may not be readable yet.
  const members = page.getByRole('list', { name: 'Members' });
  await expect(members.getByRole('listitem')).toHaveCount(2);
  await expect(members.getByRole('listitem').filter({ hasText: '(you)' })).toContainText('Member');
  await expect(members.getByRole('listitem').filter({ hasNotText: '(you)' })).toContainText(
    new RegExp(`(${admin.username}|User #${admin.id})Administrator`),
  );

  // No administrator actions, and the page says why.
  await expect(page.getByText('Only administrators of this organization can rename it, change its logo or delete it.')).toBeVisible();
  for (const name of ['Rename', 'Change logo', 'Delete organization']) {
    await expect(page.getByRole('button', { name })).toHaveCount(0);
  }

  // Leaving takes a confirmation, then the organization is gone from /orgs.
  await page.getByRole('button', { name: 'Leave organization' }).click();
  const dialog = page.getByRole('dialog', { name: 'Leave organization' });
  await dialog.getByRole('button', { name: 'Leave organization' }).click();
  await expect(page).toHaveURL(/\/orgs$/);
  await expect(page.getByText(`You left ${orgName}`)).toBeVisible();
  await expect(page.getByRole('link', { name: orgName })).toHaveCount(0);
});
