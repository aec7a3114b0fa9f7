import { expect, test, type Page } from '@playwright/test';
import { apiAs, organizationWithMember, registerApiUser, type V7 } from './support/api';
import { watchPageProblems } from './support/csp';
import { arrangeSql } from './support/db';
import { createFleetWithSuggestedName } from './support/fleets';
import { deployRelease, newCommit } from './support/releases';
import { newEmail, signIn } from './support/users';

/*
 * Issue 4 journey (spec 2 §2 "Release pages", §4, §5, §7): a developer's release list and
 * release pages — list, search by version and tag, summary data, note autosave, tags,
 * version edit, pin guard on delete, invalidate and re-validate, finalize a draft, delete;
 * an observer sees the controls disabled; bad release ids go back to the list.
 */

const COMPOSITION = { version: '2.1', services: { main: { build: './main', ports: ['80:80'] }, worker: { build: './worker' } } };
const DOCKERFILE = 'FROM alpine:3.20\nCMD ["node", "server.js"]';

async function searchReleases(page: Page, text: string) {
  await page.getByLabel('Search releases').fill(text);
}

test('a developer deploys, finds, edits, pins, invalidates, finalizes and deletes releases; an observer reads them', async ({ page, browser, request }) => {
  test.setTimeout(120_000);
  const problems = await watchPageProblems(page);
  const stamp = Date.now().toString(36);
  const admin = await registerApiUser(request, newEmail('reladmin'));
  const observer = await registerApiUser(request, newEmail('relobserver'));
  const orgName = `Releases E2E ${stamp}`;
  await organizationWithMember(request, admin, observer, orgName);
  // The user creates the fleet in the dashboard, keeping the suggested name.
  await signIn(page, admin.email);
  const { id: fleetId } = await createFleetWithSuggestedName(page, orgName);
  const roles = await apiAs<V7<'application_membership_role', 'id'>>(request, admin, 'GET', `/v7/application_membership_role?$select=id&$filter=${encodeURIComponent("name eq 'observer'")}`);
  await apiAs(request, admin, 'POST', '/v7/user_application_membership', { user: observer.id, is_member_of__application: fleetId, application_membership_role: roles.d[0]!.id });

  // Releases as `balena deploy` makes them: a final one, a draft, and a failed invalidated one.
  const commitA = newCommit();
  const releaseA = await deployRelease(request, admin, fleetId, {
    commit: commitA,
    semver: '1.2.3',
    composition: COMPOSITION,
    buildLog: '[Info] Starting build\n[Info] Uploading images\n[Success] Release built',
    services: [
      { name: 'main', dockerfile: DOCKERFILE, buildLog: 'Step 1/2 : FROM alpine:3.20\nSuccessfully built main', imageSize: 73_400_320 },
      { name: 'worker', buildLog: 'Step 1/1 : FROM busybox' },
    ],
    tags: { env: 'production' },
  });
  const commitB = newCommit();
  const releaseB = await deployRelease(request, admin, fleetId, {
    commit: commitB,
    isFinal: false,
    composition: COMPOSITION,
    services: [{ name: 'main', dockerfile: DOCKERFILE }],
    tags: { channel: 'beta' },
  });
  const commitC = newCommit();
  const failed = await apiAs<{ id: number }>(request, admin, 'POST', '/v7/release', {
    belongs_to__application: fleetId,
    commit: commitC,
    status: 'failed',
    source: 'local',
    composition: {},
  });
  await apiAs(request, admin, 'PATCH', `/v7/release(${failed.id})`, { is_invalidated: true });
  // The API refuses a composition that is not one (400) since releases are validated against
  // the model's composition rule; a release stored before that can still hold one, and the
  // dashboard must say so rather than break. Only direct SQL can make that history now.
  await arrangeSql(`UPDATE release SET composition = $2 WHERE id = $1`, [failed.id, JSON.stringify('not a composition')]);

  // The list: newest first, with status, creator, validity, finality and tags.
  await page.goto(`/fleets/${fleetId}`);
  await page.getByRole('tab', { name: 'Releases' }).click();
  await expect(page).toHaveURL(new RegExp(`/fleets/${fleetId}/releases$`));
  const table = page.getByRole('table', { name: 'Releases' });
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText(commitC.slice(0, 7));
  await expect(rows.nth(0)).toContainText('Failed');
  const rowA = rows.filter({ hasText: commitA.slice(0, 7) });
  await expect(rowA).toContainText('1.2.3');
  await expect(rowA).toContainText('Success');
  await expect(rowA).toContainText(admin.username);
  await expect(rowA).toContainText('env: production');
  const rowB = rows.filter({ hasText: commitB.slice(0, 7) });
  await expect(rowB).toContainText(/0\.0\.0-\d+/);
  await expect(rowB).toContainText('channel: beta');
  await expect(rowB.locator('td').nth(7)).toHaveText('No'); // Final

  // Search by version, by tag value, by key=value; nothing matching says so.
  await searchReleases(page, '1.2.3');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(commitA.slice(0, 7));
  await searchReleases(page, 'BETA');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(commitB.slice(0, 7));
  await searchReleases(page, 'env=production');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(commitA.slice(0, 7));
  await searchReleases(page, 'no-such-release');
  await expect(page.getByText('No releases match "no-such-release".')).toBeVisible();
  await searchReleases(page, '');
  await expect(rows).toHaveCount(3);

  // The release page opens on its summary.
  await page.getByRole('link', { name: `Open release ${commitA.slice(0, 7)}` }).click();
  await expect(page).toHaveURL(new RegExp(`/fleets/${fleetId}/releases/${releaseA}/summary$`));
  await expect(page.getByRole('tab', { name: 'Releases' })).toHaveAttribute('aria-selected', 'true');
  const details = page.getByRole('region', { name: 'Details' });
  await expect(details).toContainText('1.2.3');
  await expect(details).toContainText(commitA);
  await expect(details).toContainText('Success');
  await expect(details).toContainText('local');
  await expect(details).toContainText(admin.username);
  await expect(details).toContainText(/1m \d+s/); // started 95 s before it ended
  await expect(details).not.toContainText('Build failed');
  await expect(details.getByRole('link', { name: 'Devices running this release' })).toHaveAttribute(
    'href',
    `/fleets/${fleetId}/devices?is_running__release=${releaseA}`,
  );
  await expect(page.getByRole('region', { name: 'Composition' })).toContainText('"worker": {');
  await expect(page.getByRole('log', { name: 'Build log', exact: true })).toContainText('[Success] Release built');
  const main = page.getByRole('region', { name: 'main', exact: true });
  await expect(main).toContainText('70.0 MB');
  await expect(main).toContainText(/\/v2\/[0-9a-f]{32}/); // where the server's registry stores it
  await expect(main.getByLabel('Dockerfile')).toContainText('FROM alpine:3.20');
  await expect(main.getByRole('log', { name: 'main Build log' })).toContainText('Successfully built main');
  await expect(main.getByRole('img', { name: 'Image built' })).toBeVisible();
  const worker = page.getByRole('region', { name: 'worker', exact: true });
  await expect(worker).toContainText('No dockerfile available');
  await expect(worker.getByRole('log', { name: 'worker Build log' })).toContainText('FROM busybox');

  // The note saves itself after a pause in typing; a reload shows it.
  await page.getByLabel('Note', { exact: true }).fill('Rolled out to the pilot sites first');
  await expect(page.getByText('Saved', { exact: true })).toBeVisible();
  await page.getByLabel('Known issues').fill('LED blinks twice on boot');
  await expect(page.getByText('Saved', { exact: true })).toHaveCount(2);
  await page.reload();
  await expect(page.getByLabel('Note', { exact: true })).toHaveValue('Rolled out to the pilot sites first');
  await expect(page.getByLabel('Known issues')).toHaveValue('LED blinks twice on boot');

  // Tags: add one, change its value, remove it.
  const tags = page.getByRole('region', { name: 'Tags' });
  await tags.getByLabel('Tag key').fill('site');
  await tags.getByLabel('Tag value').fill('north');
  await tags.getByRole('button', { name: 'Add tag' }).click();
  const tagTable = tags.getByRole('table', { name: 'Tags' });
  await expect(tagTable.getByRole('row', { name: /site/ })).toContainText('north');
  await tags.getByRole('button', { name: 'Edit tag site' }).click();
  const editTag = page.getByRole('dialog', { name: 'Edit tag site' });
  await editTag.getByLabel('Tag value').fill('south');
  await editTag.getByRole('button', { name: 'Save tag' }).click();
  await expect(editTag).toBeHidden();
  await expect(tagTable.getByRole('row', { name: /site/ })).toContainText('south');
  await tags.getByRole('button', { name: 'Remove tag site' }).click();
  await expect(tagTable.getByRole('row', { name: /site/ })).toHaveCount(0);
  await expect(tagTable).toContainText('production');

  // The version takes three-part semver only.
  await details.getByRole('button', { name: 'Edit version' }).click();
  const versionDialog = page.getByRole('dialog', { name: 'Edit release version' });
  await versionDialog.getByLabel('Version (MAJOR.MINOR.PATCH)').fill('1.3');
  await versionDialog.getByRole('button', { name: 'Save version' }).click();
  await expect(versionDialog.getByText('Only three-part semver versions (MAJOR.MINOR.PATCH) are supported')).toBeVisible();
  await versionDialog.getByLabel('Version (MAJOR.MINOR.PATCH)').fill('1.3.0');
  await versionDialog.getByRole('button', { name: 'Save version' }).click();
  await expect(versionDialog).toBeHidden();
  await expect(details).toContainText('1.3.0');

  // Pin the fleet to it on the fleet's settings page; now it cannot be deleted (the server agrees).
  const releaseUrl = new URL(page.url()).pathname;
  await page.goto(`/fleets/${fleetId}/settings`);
  await page.getByRole('combobox', { name: 'Default release' }).selectOption({ value: commitA });
  await page.getByRole('region', { name: 'Default release' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('successfully pinned to release')).toBeVisible();
  await page.goto(releaseUrl);
  // The fleet shell's and the release page's Settings tabs; the release's is the last.
  await expect(page.getByRole('tab', { name: 'Settings' })).toHaveCount(2);
  await page.getByRole('tab', { name: 'Settings' }).last().click();
  await expect(page).toHaveURL(new RegExp(`/fleets/${fleetId}/releases/${releaseA}/settings$`));
  const deleteSection = page.getByRole('region', { name: 'Delete release' });
  await expect(deleteSection.getByRole('button', { name: 'Delete release' })).toBeDisabled();
  await expect(deleteSection).toContainText('cannot delete pinned releases');
  const refused = await request.delete(`/v7/release(${releaseA})`, { headers: { Authorization: `Bearer ${admin.token}` } });
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toContain('cannot delete pinned releases');

  // Invalidate and validate again; a final release cannot be finalized again.
  const validity = page.getByRole('region', { name: 'Validity' });
  await validity.getByRole('button', { name: 'Invalidate release' }).click();
  await expect(page.getByText('Release invalidated')).toBeVisible();
  await expect(validity).toContainText('This release is invalidated');
  await validity.getByRole('button', { name: 'Validate release' }).click();
  await expect(page.getByText('Release validated')).toBeVisible();
  await expect(validity.getByRole('button', { name: 'Invalidate release' })).toBeEnabled();
  const finalizeSection = page.getByRole('region', { name: 'Finalize' });
  await expect(finalizeSection.getByRole('button', { name: 'Finalize release' })).toBeDisabled();
  await expect(finalizeSection).toContainText('already finalized');

  // A failed, invalidated release cannot be made valid again.
  await page.goto(`/fleets/${fleetId}/releases/${failed.id}`);
  await expect(page).toHaveURL(new RegExp(`/releases/${failed.id}/summary$`));
  await expect(page.getByRole('region', { name: 'Details' })).toContainText('Build failed');
  await expect(page.getByRole('region', { name: 'Composition' })).toContainText('Could not parse composition data');
  await page.getByRole('tab', { name: 'Settings' }).last().click();
  await expect(page.getByRole('region', { name: 'Validity' }).getByRole('button', { name: 'Validate release' })).toBeDisabled();
  await expect(page.getByRole('region', { name: 'Validity' })).toContainText('cannot validate failed releases');

  // Finalize the draft (one way), then delete it with the typed confirmation.
  await page.goto(`/fleets/${fleetId}/releases/${releaseB}/settings`);
  const draftFinalize = page.getByRole('region', { name: 'Finalize' });
  await draftFinalize.getByRole('button', { name: 'Finalize release' }).click();
  await page.getByRole('dialog', { name: 'Finalize release' }).getByRole('button', { name: 'Finalize release' }).click();
  await expect(page.getByText('Release finalized')).toBeVisible();
  await expect(draftFinalize.getByRole('button', { name: 'Finalize release' })).toBeDisabled();
  await expect(draftFinalize).toContainText('already finalized');
  await expect(page.getByRole('heading', { name: /^Release 0\.0\.0(\+rev\d+)? / })).toBeVisible(); // final: no draft suffix any more
  await page.getByRole('region', { name: 'Delete release' }).getByRole('button', { name: 'Delete release' }).click();
  const deleteDialog = page.getByRole('dialog', { name: 'Delete release' });
  await expect(deleteDialog.getByRole('button', { name: 'Delete release' })).toBeDisabled();
  await deleteDialog.getByLabel('Type the short commit to confirm').fill(commitB.slice(0, 7));
  await deleteDialog.getByRole('button', { name: 'Delete release' }).click();
  await expect(page.getByText(`Release ${commitB.slice(0, 7)} deleted`)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/fleets/${fleetId}/releases$`));
  await expect(rows).toHaveCount(2);
  await expect(table).not.toContainText(commitB.slice(0, 7));

  // Bad release ids go back to the list.
  await page.goto(`/fleets/${fleetId}/releases/abc`);
  await expect(page.getByText('Invalid id passed in url')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/fleets/${fleetId}/releases$`));
  await page.goto(`/fleets/${fleetId}/releases/${releaseB}`);
  await expect(page.getByText('Release not found')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/fleets/${fleetId}/releases$`));

  // An observer reads the release; every control is disabled.
  const observerContext = await browser.newContext();
  const observerPage = await observerContext.newPage();
  const observerProblems = await watchPageProblems(observerPage);
  await signIn(observerPage, observer.email);
  await observerPage.goto(`/fleets/${fleetId}/releases/${releaseA}`);
  await expect(observerPage.getByRole('region', { name: 'Details' })).toContainText('1.3.0');
  await expect(observerPage.getByLabel('Note', { exact: true })).toBeDisabled();
  await expect(observerPage.getByLabel('Note', { exact: true })).toHaveValue('Rolled out to the pilot sites first');
  await expect(observerPage.getByRole('button', { name: 'Edit version' })).toBeDisabled();
  await expect(observerPage.getByRole('button', { name: 'Add tag' })).toBeDisabled();
  await expect(observerPage.getByRole('button', { name: 'Remove tag env' })).toBeDisabled();
  await observerPage.getByRole('tab', { name: 'Settings' }).last().click();
  await expect(observerPage.getByRole('button', { name: 'Invalidate release' })).toBeDisabled();
  await expect(observerPage.getByRole('button', { name: 'Finalize release' })).toBeDisabled();
  await expect(observerPage.getByRole('button', { name: 'Delete release' })).toBeDisabled();
  await observerPage.getByRole('button', { name: 'Invalidate release' }).locator('..').hover();
  await expect(observerPage.getByRole('tooltip')).toHaveText("You don't have the required permission for this action");
  await observerContext.close();

  expect(problems.errors).toEqual([]);
  expect(observerProblems.errors).toEqual([]);
});
