import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { apiAs, type ApiUser, type V7 } from './api';

/** Picks a device type by name in the create dialog's device-type autocomplete. */
export async function chooseDeviceType(dialog: Locator, name: string): Promise<void> {
  const input = dialog.getByRole('combobox', { name: 'Device type' });
  await input.click();
  await input.fill(name);
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // The recommended type's option also says "Recommended".
  await dialog.page().getByRole('option', { name: new RegExp(`^${escaped}( Recommended)?$`) }).click();
  await expect(input).toHaveValue(name);
}

/**
 * Creates a fleet through the /fleets create dialog, which then opens the new fleet's page;
 * returns its id.
 */
export async function createFleet(page: Page, orgName: string, fleetName: string): Promise<number> {
  await page.goto('/fleets');
  await page.getByRole('button', { name: 'Create fleet' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Create fleet' });
  await dialog.getByLabel('Organization').selectOption({ label: orgName });
  // The dialog fills in a suggested name once the organization's names have loaded; typing
  // before that lets the suggestion land on top of the typed name.
  const nameInput = dialog.getByLabel('Fleet name');
  await expect(nameInput).toHaveValue(/^[a-z]+-[a-z]+$/);
  await nameInput.fill(fleetName);
  await expect(nameInput).toHaveValue(fleetName);
  await chooseDeviceType(dialog, 'Raspberry Pi 4 (using 64bit OS)');
  await dialog.getByRole('button', { name: 'Create fleet' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/fleets\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: fleetName })).toBeVisible();
  return Number(/\/fleets\/(\d+)$/.exec(page.url())![1]);
}

/**
 * Creates a fleet through the create dialog keeping the dialog's suggested adjective-noun
 * name; returns the fleet's id and that name.
 */
export async function createFleetWithSuggestedName(page: Page, orgName: string): Promise<{ id: number; name: string }> {
  await page.goto('/fleets');
  await page.getByRole('button', { name: 'Create fleet' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Create fleet' });
  await dialog.getByLabel('Organization').selectOption({ label: orgName });
  const nameInput = dialog.getByLabel('Fleet name');
  await expect(nameInput).toHaveValue(/^[a-z]+-[a-z]+$/);
  const name = await nameInput.inputValue();
  await chooseDeviceType(dialog, 'Raspberry Pi 4 (using 64bit OS)');
  await dialog.getByRole('button', { name: 'Create fleet' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/fleets\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  return { id: Number(/\/fleets\/(\d+)$/.exec(page.url())![1]), name };
}

/** Creates a fleet, app or block through the data API as `admin`; returns its id. */
export async function createApplication(
  request: APIRequestContext,
  admin: ApiUser,
  orgId: number,
  name: string,
  appClass: 'fleet' | 'app' | 'block',
): Promise<number> {
  const types = await apiAs<{ d: { id: number }[] }>(request, admin, 'GET', '/v7/device_type?$select=id&$top=1');
  const app = await apiAs<{ id: number }>(request, admin, 'POST', '/v7/application', {
    app_name: name,
    organization: orgId,
    is_for__device_type: types.d[0]!.id,
    is_of__class: appClass,
  });
  return app.id;
}

/**
 * Through the API: a new organization named `orgName` owned by `user` with one fleet of
 * `deviceType`; returns the fleet's id and its device type's id.
 */
export async function organizationWithFleet(
  request: APIRequestContext,
  user: ApiUser,
  orgName: string,
  fleetName: string,
  deviceType: string,
): Promise<{ fleetId: number; deviceTypeId: number }> {
  const org = await apiAs<{ id: number }>(request, user, 'POST', '/v7/organization', { name: orgName });
  return fleetInOrganization(request, user, org.id, fleetName, deviceType);
}

/** Through the API: a new fleet of `deviceType` in organization `orgId`; its id and its device type's id. */
export async function fleetInOrganization(
  request: APIRequestContext,
  user: ApiUser,
  orgId: number,
  fleetName: string,
  deviceType: string,
): Promise<{ fleetId: number; deviceTypeId: number }> {
  const types = await apiAs<V7<'device_type', 'id'>>(request, user, 'GET', `/v7/device_type?$select=id&$filter=${encodeURIComponent(`slug eq '${deviceType}'`)}`);
  const deviceTypeId = types.d[0]!.id;
  const fleet = await apiAs<{ id: number }>(request, user, 'POST', '/v7/application', {
    app_name: fleetName,
    organization: orgId,
    is_for__device_type: deviceTypeId,
    is_of__class: 'fleet',
  });
  return { fleetId: fleet.id, deviceTypeId };
}

const hex = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join('');

/**
 * `POST /device/register` as balenaOS does, with a fleet's provisioning key, reporting the given
 * OS and supervisor versions. The device never connects, so it stays offline.
 */
export async function registerOfflineDevice(
  request: APIRequestContext,
  provisioningKey: string,
  fleetId: number,
  deviceType: string,
  versions: { os: string; supervisor: string },
): Promise<{ id: number; uuid: string }> {
  const res = await request.post('/device/register', {
    headers: { Authorization: `Bearer ${provisioningKey}` },
    data: { application: fleetId, uuid: hex(32), device_type: deviceType, api_key: hex(32), supervisor_version: versions.supervisor, os_version: versions.os, os_variant: 'prod' },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: number; uuid: string };
}
