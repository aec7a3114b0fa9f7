import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { verifyExport } from '../scripts/verify-audit.mjs';
import { apiAs, registerApiUser } from './support/api';
import { seriousViolations } from './support/axe';
import { arrangeSql } from './support/db';
import { fleetInOrganization } from './support/fleets';
import { newEmail, signIn } from './support/users';

/*
 * Issue 21 item 5: the organization's audit log in the dashboard. A fleet renamed through the
 * API shows as a write with its before/after; the kind filter narrows to writes; the chain is
 * verified; the NDJSON export downloads and verifies offline; a row altered in the database
 * turns the chain status into "broken at row N".
 */

test.use({ bypassCSP: true });

test('an administrator reads, filters, exports and verifies the organization\'s audit log', async ({ page, request }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const admin = await registerApiUser(request, newEmail('auditadmin'));
  const { id: orgId } = await apiAs<{ id: number }>(request, admin, 'POST', '/v7/organization', { name: `Audit Org ${stamp}` });
  const { fleetId } = await fleetInOrganization(request, admin, orgId, `audit-fleet-${stamp}`, 'raspberrypi3');
  await apiAs(request, admin, 'PATCH', `/v7/application(${fleetId})`, { app_name: `audited-${stamp}` });

  await signIn(page, admin.email);
  await page.goto(`/orgs/${orgId}`);
  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  const log = page.getByRole('table', { name: 'Audit log of this organization' });
  const renamed = log.getByRole('row').filter({ hasText: `PATCH /v7/application(${fleetId})` });
  await expect(renamed).toContainText(`app_name: "audit-fleet-${stamp}" → "audited-${stamp}"`);
  await expect(renamed).toContainText(admin.username);
  await expect(page.getByText(/Hash chain verified up to row \d+/)).toBeVisible();

  // Only writes: the organization's and the fleet's creation and the rename.
  await page.getByLabel('Show').click();
  await page.getByRole('option', { name: 'Writes' }).click();
  await expect(log.getByRole('row')).toHaveCount(4); // the header and three writes
  expect(await seriousViolations(page)).toEqual([]);

  // The export downloads and verifies without the server.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export NDJSON' }).click();
  const text = await readFile((await (await download).path())!, 'utf8');
  const status = verifyExport(text);
  expect(status.broken).toBeNull();
  expect(status.rows).toBeGreaterThanOrEqual(2);

  // Someone edits a past row in the database: the page says where the chain breaks.
  const firstId = (JSON.parse(text.split('\n')[0]!) as { id: number }).id;
  await arrangeSql(`UPDATE audit_event SET performed_as_username = 'someone-else' WHERE id = $1`, [firstId]);
  await page.reload();
  await expect(page.getByText(`Hash chain broken at row ${firstId}`)).toBeVisible();
});
