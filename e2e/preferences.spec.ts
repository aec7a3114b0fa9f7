import { createHash, generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { expect, test, type Page } from '@playwright/test';
import { registerApiUser } from './support/api';
import { E2E_PORTS } from './support/ports';
import { newEmail, signIn } from './support/users';

/*
 * Preferences (spec 1 §2): SSH keys added by hand (a bad key refused with the rule's
 * message) and imported from a code host, a named API key shown once then revoked, and the
 * appearance preferences. The e2e server reads SSH keys from the port E2E_PORTS.sshKeys
 * (FLOTILLA_SSH_KEYS_URL in playwright.config.ts); this file serves them there.
 */
const KEY_HOST_PORT = E2E_PORTS.sshKeys;
const hostKeys = new Map<string, string>();
let keyHost: Server;

test.beforeAll(async () => {
  keyHost = createServer((req, res) => {
    const m = /^\/([^/]+)\.keys$/.exec(req.url ?? '');
    const body = m ? hostKeys.get(decodeURIComponent(m[1]!)) : undefined;
    if (body === undefined) res.writeHead(404).end('Not Found');
    else res.writeHead(200, { 'content-type': 'text/plain' }).end(body);
  });
  await new Promise<void>((resolve, reject) => {
    keyHost.once('error', reject);
    keyHost.listen(KEY_HOST_PORT, '127.0.0.1', resolve);
  });
});
test.afterAll(async () => {
  await new Promise((r) => keyHost.close(r));
});

function ed25519Line(comment: string): string {
  const { publicKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const str = (b: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
  return `ssh-ed25519 ${Buffer.concat([str(Buffer.from('ssh-ed25519')), str(raw)]).toString('base64')} ${comment}`;
}
const fingerprint = (line: string) => `SHA256:${createHash('sha256').update(Buffer.from(line.split(' ')[1]!, 'base64')).digest('base64').replace(/=+$/, '')}`;

async function openPreferences(page: Page) {
  await page.getByRole('button', { name: /e2e_/ }).click();
  await page.getByRole('menuitem', { name: 'Preferences' }).click();
  await expect(page).toHaveURL(/\/preferences$/);
}

test('SSH keys: a bad key is refused with the message, a good one is added with its fingerprint, imported keys are numbered, and keys are deleted', async ({ page, request }) => {
  const user = await registerApiUser(request, newEmail('sshkeys'));
  await signIn(page, user.email);
  await openPreferences(page);
  // The app shell (sidebar) stays on preferences pages (issue 11); the username is shown.
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  await expect(page.getByTestId('preferences-username')).toHaveText(user.username);

  await page.getByRole('tab', { name: 'SSH keys' }).click();
  await expect(page).toHaveURL(/\/preferences\/sshkeys$/);
  await page.getByRole('button', { name: 'Add SSH key' }).click();
  const add = page.getByRole('dialog', { name: 'Add an SSH key' });
  await add.getByLabel('Title').fill('laptop');
  await add.getByLabel('Public key').fill('ssh-rsa this-is-not-base64!');
  await add.getByRole('button', { name: 'Save' }).click();
  await expect(add).toContainText('The key must start with ssh-rsa');
  await add.getByLabel('Title').fill('   ');
  await add.getByRole('button', { name: 'Save' }).click();
  await expect(add).toContainText('The key title is mandatory!');

  const line = ed25519Line('me@laptop');
  await add.getByLabel('Title').fill('  laptop ');
  await add.getByLabel('Public key').fill(`  ${line}\n`);
  await add.getByRole('button', { name: 'Save' }).click();
  await expect(add).toBeHidden();
  const table = page.getByRole('table', { name: 'SSH keys' });
  await expect(table.getByRole('row').filter({ hasText: 'laptop' })).toContainText(fingerprint(line));

  // Import from the code host: the key already saved is skipped, the others numbered.
  const hostUser = `octo-${Date.now().toString(36)}`;
  const [a, b] = [ed25519Line('a'), ed25519Line('b')];
  hostKeys.set(hostUser, `${a}\n${line.replace('me@laptop', 'other-comment')}\n${b}\n`);
  await page.getByRole('button', { name: 'Import from GitHub' }).click();
  const importDialog = page.getByRole('dialog', { name: 'Import from GitHub' });
  await importDialog.getByLabel('GitHub username').fill(hostUser);
  await importDialog.getByRole('button', { name: 'Import' }).click();
  await expect(page.getByText('Imported 2 SSH keys')).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: 'GitHub Key 1' })).toContainText(fingerprint(a));
  await expect(table.getByRole('row').filter({ hasText: 'GitHub Key 2' })).toContainText(fingerprint(b));

  await page.getByRole('button', { name: 'Import from GitHub' }).click();
  await importDialog.getByLabel('GitHub username').fill(hostUser);
  await importDialog.getByRole('button', { name: 'Import' }).click();
  await expect(page.getByText(`All of the SSH keys of ${hostUser} are already saved`)).toBeVisible();
  await importDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(table.getByRole('row')).toHaveCount(4); // header + 3 keys

  await page.getByRole('button', { name: 'Delete SSH key laptop' }).click();
  await page.getByRole('dialog', { name: 'Delete SSH key?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(table.getByRole('row').filter({ hasText: 'laptop' })).toHaveCount(0);
  await expect(table.getByRole('row')).toHaveCount(3);
});

test('access tokens: a new API key is shown once, works, and stops working once revoked', async ({ page, request }) => {
  const user = await registerApiUser(request, newEmail('apikeys'));
  await signIn(page, user.email);
  await page.goto('/preferences/access-tokens');
  await expect(page.getByLabel('Your session token')).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page.getByLabel('Your session token')).toHaveAttribute('type', 'text');

  await page.getByRole('button', { name: 'Create API key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create an API key' });
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toContainText('The name is required');
  await dialog.getByLabel('Name').fill('e2e deploy key');
  await dialog.getByLabel('Expiry').selectOption({ label: 'Never' });
  await expect(dialog).toContainText('A key that never expires stays valid until you revoke it.');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toContainText('it is shown only this once');
  const key = await dialog.getByLabel('Your new API key').inputValue();
  expect(key.length).toBeGreaterThan(20);
  await expect(dialog.getByLabel('Name')).toBeDisabled();
  await expect(dialog.getByRole('button', { name: 'Download' })).toBeVisible();
  expect((await request.get('/actor/v1/whoami', { headers: { Authorization: `Bearer ${key}` } })).status()).toBe(200);

  await dialog.getByRole('button', { name: 'Close' }).click();
  const row = page.getByRole('table', { name: 'API keys' }).getByRole('row').filter({ hasText: 'e2e deploy key' });
  await expect(row).toContainText('Never');
  await expect(page.getByText(key)).toHaveCount(0); // never shown again

  await page.getByRole('button', { name: 'Revoke API key e2e deploy key' }).click();
  await page.getByRole('dialog', { name: 'Revoke API key?' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByText('You have no API keys.')).toBeVisible();
  expect((await request.get('/actor/v1/whoami', { headers: { Authorization: `Bearer ${key}` } })).status()).toBe(401);
});

test('appearance: the header colour applies to the app bar and display-apps shows the Apps section', async ({ page, request }) => {
  const user = await registerApiUser(request, newEmail('appearance'));
  await signIn(page, user.email);
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('link', { name: 'Apps Alpha' })).toHaveCount(0);

  await page.goto('/preferences/appearance');
  await page.getByLabel('Header colour').fill('#aa3355');
  await page.getByRole('button', { name: 'Save colour' }).click();
  await expect(page.getByTestId('app-bar')).toHaveCSS('background-color', 'rgb(170, 51, 85)');
  // The switches are disabled while a save is in flight: wait for the colour's save to finish.
  await expect(page.getByText('Appearance saved').first()).toBeVisible();
  const displayApps = page.getByLabel('Display apps');
  await expect(displayApps).toBeEnabled();
  // Not a staging deployment: no navigation stripes preference.
  await expect(page.getByLabel('Navigation stripes')).toHaveCount(0);

  const saved = page.waitForResponse((r) => r.request().method() === 'PATCH' && /\/user\(/.test(r.url()));
  await displayApps.click();
  await expect(displayApps).toBeChecked();
  expect((await saved).ok()).toBe(true);
  await page.goto('/fleets');
  await expect(nav.getByRole('link', { name: 'Apps Alpha' })).toBeVisible();
  await expect(page.getByTestId('app-bar')).toHaveCSS('background-color', 'rgb(170, 51, 85)');
});
