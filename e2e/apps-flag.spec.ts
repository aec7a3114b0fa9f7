import { expect, test } from '@playwright/test';
import { apiAs, organizationWithMember, registerApiUser, type V7 } from './support/api';
import { createApplication } from './support/fleets';
import { newEmail, signIn } from './support/users';

/*
 * The apps feature flag (spec 1 §2 appearance preference "display apps"): teams and member
 * summaries get an Apps sub-page only for a user who turned it on; without it the apps
 * sub-page is not offered and its URL goes back to the summary.
 */
test('with the apps flag, a team and a member get Apps sub-pages; without it they do not', async ({ page, request }) => {
  const stamp = Date.now().toString(36);
  const admin = await registerApiUser(request, newEmail('appsadmin'));
  const member = await registerApiUser(request, newEmail('appsmember'));
  const orgId = await organizationWithMember(request, admin, member, `Apps E2E ${stamp}`);
  const appName = `app-${stamp}`;
  await createApplication(request, admin, orgId, appName, 'app');
  const team = await apiAs<{ id: number }>(request, admin, 'POST', '/v7/team', { name: 'App crew', belongs_to__organization: orgId });
  await apiAs(request, admin, 'POST', '/v7/team_membership', { user: member.id, is_member_of__team: team.id });
  const teamUrl = `/orgs/${orgId}/teams/${team.id}`;

  // Flag off (the default): no Apps tab; the apps URL goes back to the team summary.
  await signIn(page, admin.email);
  await page.goto(teamUrl);
  const tabs = page.getByRole('tablist', { name: /sections/i });
  await expect(tabs.getByRole('tab', { name: 'Blocks' })).toBeVisible();
  await expect(tabs.getByRole('tab', { name: 'Apps' })).toHaveCount(0);
  await page.goto(`${teamUrl}/apps`);
  await expect(page).toHaveURL(new RegExp(`${teamUrl}$`));

  // The administrator turns the flag on (their own preference).
  await apiAs(request, admin, 'PATCH', `/v7/user(${admin.id})`, { displays_apps: true });
  await page.goto(teamUrl);
  await expect(tabs.getByRole('tab', { name: 'Apps' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Apps' })).toContainText('This team has no access to apps.');
  await tabs.getByRole('tab', { name: 'Apps' }).click();
  await expect(page).toHaveURL(new RegExp(`${teamUrl}/apps$`));
  await page.getByRole('button', { name: 'Assign Apps' }).click();
  const assign = page.getByRole('dialog', { name: 'Assign Apps to the team' });
  await assign.getByLabel(appName).check();
  await assign.getByLabel('Access role').selectOption({ label: 'Operator' });
  await assign.getByRole('button', { name: 'Assign' }).click();
  await expect(assign).toBeHidden();
  await expect(page.getByRole('table', { name: 'Apps' }).getByRole('row').filter({ hasText: appName })).toContainText('Operator');

  // The member summary shows the app through the team, on its Apps sub-page.
  const memberships = await apiAs<V7<'organization_membership', 'id'>>(
    request,
    admin,
    'GET',
    `/v7/organization_membership?$select=id&$filter=${encodeURIComponent(`user eq ${member.id} and is_member_of__organization eq ${orgId}`)}`,
  );
  await page.goto(`/orgs/${orgId}/members/${memberships.d[0]!.id}/apps`);
  await expect(page.getByRole('region', { name: 'Apps' }).getByRole('list', { name: 'Operator' })).toContainText(`${appName} (through team App crew)`);
});
