import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { registerApiUser } from './support/api';
import { seriousViolations } from './support/axe';
import { arrangeSql } from './support/db';
import { E2E_PORTS } from './support/ports';
import { startSecondNode, type SecondNode } from './support/second-node';
import { newEmail, signIn } from './support/users';

/*
 * Issue 19 items 3 and 4 (spec 3 §2 Support, §4 Other banners and Connectivity, §9): the
 * header's help menu, the changelog dialog, the dashboard version check, the status page
 * indicator and the announcement. The main e2e server has none of these settings; this spec
 * starts a second server process with help links, an announcement and a status feed served by
 * a stand-in Statuspage on E2E_PORTS.statusFeed.
 */

// axe is injected as an inline script, which the dashboard's CSP (rightly) forbids.
test.use({ bypassCSP: true });

const NEWS_URL = `http://127.0.0.1:${E2E_PORTS.server2}`;
const STATUS_PAGE = `http://127.0.0.1:${E2E_PORTS.statusFeed}/`;
const BUILD_TIME = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'packages', 'web', 'dist', 'buildtime.txt');
const DAY = 24 * 60 * 60 * 1000;

/** What the stand-in status page answers (changed by the tests). */
let feedAnswer: { status: number; body: unknown } = {
  status: 200,
  body: {
    page: { id: 'e2e', name: 'Flotilla e2e', url: STATUS_PAGE },
    status: { indicator: 'major', description: 'Partial System Outage' },
    incidents: [{ id: 'i1', name: 'Device logs delayed', status: 'investigating', impact: 'major' }],
  },
};
let feed: Server | undefined;
let node: SecondNode | undefined;

test.describe.configure({ mode: 'serial' });
test.use({ baseURL: NEWS_URL });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  feed = createServer((_req, res) => {
    res.writeHead(feedAnswer.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(feedAnswer.body));
  });
  await new Promise<void>((r) => feed!.listen(E2E_PORTS.statusFeed, '127.0.0.1', r));
  node = await startSecondNode({
    FLOTILLA_LINK_GETTING_STARTED: 'https://example.com/getting-started',
    FLOTILLA_LINK_FORUMS: 'https://forums.example.com/',
    FLOTILLA_LINK_STATUS_PAGE: STATUS_PAGE,
    // FLOTILLA_LINK_FEATURE_REQUESTS and FLOTILLA_LINK_HELP_CENTER stay unset: hidden.
    FLOTILLA_STATUS_FEED_URL: `${STATUS_PAGE}api/v2/summary.json`,
    FLOTILLA_ANNOUNCEMENT_TEXT: 'Planned maintenance this weekend',
    FLOTILLA_ANNOUNCEMENT_FROM: new Date(Date.now() - DAY).toISOString(),
    FLOTILLA_ANNOUNCEMENT_UNTIL: new Date(Date.now() + DAY).toISOString(),
    FLOTILLA_ANNOUNCEMENT_URL: 'https://example.com/maintenance',
  });
});
test.afterAll(async () => {
  await node?.stop();
  await new Promise((r) => (feed ? feed.close(r) : r(undefined)));
});

/** A fresh user signed in on the news node; `aged`: created two days ago (not a new user). */
async function signedIn(page: Page, request: Parameters<typeof registerApiUser>[0], tag: string, aged = false) {
  const user = await registerApiUser(request, newEmail(tag));
  if (aged) await arrangeSql(`UPDATE "user" SET created_at = now() - interval '2 days' WHERE id = $1`, [user.id]);
  await signIn(page, user.email);
  return user;
}

const changelogDialog = (page: Page) => page.getByRole('dialog', { name: "What's new in Flotilla" });

test('the help menu lists the configured links (unset ones hidden), works from the keyboard, and opens the changelog', async ({ page, request }) => {
  const user = await signedIn(page, request, 'news_menu');
  // A new user is not greeted by the changelog: the latest major is remembered silently.
  await expect.poll(() => page.evaluate((id) => localStorage.getItem(`flotilla.changelogMajor.${id}`), user.id), { timeout: 30_000 }).toBe('0');
  await expect(changelogDialog(page)).toHaveCount(0);

  const button = page.getByRole('button', { name: 'Help and support' });
  await button.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible({ timeout: 30_000 });
  await expect(menu.getByRole('menuitem')).toHaveText(['Contact support', 'Getting started', 'Documentation', 'Forums', 'Status page', "What's new"]);
  await expect(menu.getByRole('menuitem', { name: 'Feature requests' })).toHaveCount(0);
  await expect(menu.getByRole('menuitem', { name: 'Help center' })).toHaveCount(0);
  await expect(menu.getByRole('menuitem', { name: 'Contact support' })).toHaveAttribute('href', '/support');
  const started = menu.getByRole('menuitem', { name: 'Getting started' });
  await expect(started).toHaveAttribute('href', 'https://example.com/getting-started');
  await expect(started).toHaveAttribute('target', '_blank');
  await expect(started).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(menu.getByRole('menuitem', { name: 'Status page' })).toHaveAttribute('href', STATUS_PAGE);
  expect(await seriousViolations(page, ['[role="menu"]'])).toEqual([]);

  // The keyboard: the first item has focus; Escape closes and gives focus back to the button.
  await expect(menu.getByRole('menuitem', { name: 'Contact support' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(button).toBeFocused();

  // Enter, then up from the first item wraps to "What's new", Enter opens the changelog.
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Contact support' })).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(page.getByRole('menuitem', { name: "What's new" })).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = changelogDialog(page);
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByRole('heading', { name: /^\[0\.1\.0\] - \d{4}-\d{2}-\d{2}$/ })).toBeVisible();
  await expect(dialog.getByRole('link', { name: 'Keep a Changelog' })).toHaveAttribute('target', '_blank');
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
});

test('the changelog opens by itself for a user who has not seen the latest major, and not again once closed', async ({ page, request }) => {
  await signedIn(page, request, 'news_changelog', true);
  const dialog = changelogDialog(page);
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByRole('heading', { name: 'Added' }).first()).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  // Reloaded, with the clock installed: past every delay of the page, no dialog.
  await page.clock.install();
  const changelogRead = page.waitForResponse((r) => r.url().endsWith('/CHANGELOG.md'));
  await page.reload();
  await changelogRead;
  await expect(page.getByRole('button', { name: 'Help and support' })).toBeVisible({ timeout: 30_000 });
  await page.clock.fastForward('00:10');
  await expect(dialog).toHaveCount(0);
});

test('the status indicator shows the feed, the incident banner names its incidents, and an unreadable feed is "Status unavailable"', async ({ page, request }) => {
  test.setTimeout(180_000);
  await page.clock.install();
  await signedIn(page, request, 'news_status');
  // Checked 3 s after load (spec 3 §9).
  await page.clock.fastForward('00:05');
  const indicator = page.getByRole('link', { name: 'Service status: Major service outage' });
  await expect(indicator).toBeVisible({ timeout: 30_000 });
  await expect(indicator).toHaveAttribute('href', STATUS_PAGE);
  const banner = page.getByRole('status', { name: 'Major service outage' });
  await expect(banner).toContainText('Known issues: Device logs delayed');
  await expect(banner.getByRole('link', { name: 'Status page' })).toHaveAttribute('href', STATUS_PAGE);
  expect(await seriousViolations(page, ['header'])).toEqual([]);

  // The feed breaks: once the server's 30 s cache has passed, the next 60 s poll says so.
  feedAnswer = { status: 500, body: { error: 'down' } };
  const unavailable = page.getByRole('link', { name: 'Service status: Status unavailable' });
  await expect(async () => {
    await page.clock.fastForward('01:00');
    await expect(unavailable).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 120_000, intervals: [5_000] });
  await expect(page.getByRole('status', { name: 'Major service outage' })).toHaveCount(0);
});

test('a new build served: the refresh banner shows after the 10-minute poll, and Refresh loads the new build', async ({ page, request }) => {
  const original = await readFile(BUILD_TIME, 'utf8');
  try {
    await page.clock.install();
    const firstRead = page.waitForResponse((r) => r.url().endsWith('/buildtime.txt'));
    await signedIn(page, request, 'news_version');
    await firstRead;
    const newVersion = page.getByRole('status', { name: 'A new version of the dashboard is available.' });
    await page.clock.fastForward('09:00');
    await writeFile(BUILD_TIME, `${new Date(Date.now() + 60_000).toISOString()}\n`);
    await page.clock.fastForward('00:30');
    await expect(newVersion).toHaveCount(0);
    await page.clock.fastForward('00:31');
    await expect(newVersion).toBeVisible({ timeout: 30_000 });
    await newVersion.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.getByRole('button', { name: 'Help and support' })).toBeVisible({ timeout: 30_000 });
    await page.clock.fastForward('10:01');
    await expect(newVersion).toHaveCount(0);
  } finally {
    await writeFile(BUILD_TIME, original);
  }
});

test('the announcement shows after load inside its window, until dismissed', async ({ page, request }) => {
  await page.clock.install();
  await signedIn(page, request, 'news_announcement');
  await page.clock.fastForward('00:05');
  const announcement = page.getByRole('status', { name: 'Announcement' });
  await expect(announcement).toContainText('Planned maintenance this weekend', { timeout: 30_000 });
  await expect(announcement.getByRole('link', { name: 'Learn more' })).toHaveAttribute('href', 'https://example.com/maintenance');
  await announcement.getByRole('button', { name: 'Dismiss' }).click();
  await expect(announcement).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Help and support' })).toBeVisible({ timeout: 30_000 });
  await page.clock.fastForward('00:10');
  await expect(announcement).toHaveCount(0);
});
