import { expect, type Page } from '@playwright/test';

/** Creates a fleet through the /fleets create dialog and waits for it in the list. */
export async function createFleet(page: Page, orgName: string, fleetName: string): Promise<void> {
  await page.goto('/fleets');
  await page.getByRole('button', { name: 'Create fleet' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Create fleet' });
  await dialog.getByLabel('Organization').selectOption({ label: orgName });
  await dialog.getByLabel('Fleet name').fill(fleetName);
  await dialog.getByLabel('Device type').selectOption({ label: 'Raspberry Pi 4 (using 64bit OS)' });
  await dialog.getByRole('button', { name: 'Create fleet' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('table', { name: 'Fleets' })).toContainText(fleetName);
}
