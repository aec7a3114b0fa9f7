import { expect, test, type Page } from '@playwright/test';
import { CONTAINER_LABELS } from '@flotilla/agent';
import { podman } from '@flotilla/server/test-engine';
import { registerApiUser } from './support/api';
import { watchPageProblems } from './support/csp';
import { startEngineDevice, type EngineDevice } from './support/engine-device';
import { organizationWithFleet } from './support/fleets';
import { newEmail, signIn } from './support/users';

/*
 * Issue 16 item 3, end to end: a variable added on the fleet variables page and applied
 * reaches a real agent's containers (`flotilla-agent run` on the run's Podman engine); the
 * container's environment is read through the engine. A variable of one service recreates
 * that service's container only.
 */

const engine = { env: Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('CONTAINERS_')) as [string, string][]) };
const devices: EngineDevice[] = [];
test.afterAll(async () => {
  for (const d of devices.splice(0)) await d.stop();
});

/** The running container of `service` on the device: its id and environment, as the engine has them. */
async function container(uuid: string, service: string): Promise<{ id: string; env: Record<string, string> } | undefined> {
  const { stdout } = await podman(engine, ['ps', '-q', '--no-trunc', '--filter', `label=${CONTAINER_LABELS.deviceUuid}=${uuid}`, '--filter', `label=${CONTAINER_LABELS.serviceName}=${service}`]).catch(() => ({ stdout: '' }));
  const id = stdout.split('\n').map((s) => s.trim()).find(Boolean);
  if (!id) return undefined;
  const inspected = await podman(engine, ['inspect', '--format', '{{json .Config.Env}}', id]).catch(() => undefined);
  if (!inspected) return undefined;
  const env: Record<string, string> = {};
  for (const kv of JSON.parse(inspected.stdout) as string[]) env[kv.slice(0, kv.indexOf('='))] = kv.slice(kv.indexOf('=') + 1);
  return { id, env };
}

async function addVariable(page: Page, name: string, value: string, service?: string) {
  await page.getByRole('button', { name: 'Add variable' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add variable' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Value').fill(value);
  if (service) await dialog.getByLabel('Service').selectOption({ label: service });
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog).toBeHidden();
}

async function applyAll(page: Page) {
  const bar = page.getByRole('region', { name: 'Pending changes' });
  await bar.getByRole('button', { name: 'Apply all changes' }).click();
  await expect(page.getByText('All changes applied')).toBeVisible();
  await expect(bar).toBeHidden();
}

test("a variable added and applied on the fleet variables page reaches the real agent's containers; a service variable recreates that service only", async ({ page, request }) => {
  test.setTimeout(240_000);
  const problems = await watchPageProblems(page);
  const stamp = Date.now().toString(36);
  const owner = await registerApiUser(request, newEmail('varsagent'));
  const { fleetId } = await organizationWithFleet(request, owner, `Vars agent ${stamp}`, `varsagent_${stamp}`, 'raspberrypi3');
  const sleep = 'trap "exit 0" TERM; while true; do /bin/busybox sleep 1; done';
  const device = await startEngineDevice(request, owner, fleetId, { deviceType: 'raspberrypi3', services: { main: sleep, worker: sleep } });
  devices.push(device);
  const before = { main: await container(device.uuid, 'main'), worker: await container(device.uuid, 'worker') };
  expect(before.main?.env.GREETING, device.output()).toBeUndefined();

  await signIn(page, owner.email);
  await page.goto(`/fleets/${fleetId}/envvars`);
  await expect(page.getByRole('heading', { name: 'Fleet variables' })).toBeVisible();

  // A fleet variable (all services): both containers get it.
  await addVariable(page, 'GREETING', 'hello from the dashboard');
  await applyAll(page);
  await expect
    .poll(async () => [(await container(device.uuid, 'main'))?.env.GREETING, (await container(device.uuid, 'worker'))?.env.GREETING], {
      timeout: 60_000,
      message: `the containers never got GREETING\n${device.output()}`,
    })
    .toEqual(['hello from the dashboard', 'hello from the dashboard']);

  // A variable of the worker service only: the worker is recreated with it, main keeps its container.
  const mainId = (await container(device.uuid, 'main'))!.id;
  const workerId = (await container(device.uuid, 'worker'))!.id;
  await addVariable(page, 'WORKER_ONLY', 'yes', 'worker');
  await applyAll(page);
  await expect
    .poll(async () => (await container(device.uuid, 'worker'))?.env.WORKER_ONLY, { timeout: 60_000, message: `the worker never got WORKER_ONLY\n${device.output()}` })
    .toBe('yes');
  const after = { main: await container(device.uuid, 'main'), worker: await container(device.uuid, 'worker') };
  expect(after.worker!.id).not.toBe(workerId);
  expect(after.main!.id).toBe(mainId);
  expect(after.main!.env.WORKER_ONLY).toBeUndefined();
  expect(after.main!.env.GREETING).toBe('hello from the dashboard');
  expect(problems.errors).toEqual([]);
});
