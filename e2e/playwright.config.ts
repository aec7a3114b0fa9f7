import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, devices } from '@playwright/test';
import { E2E_JWT_SECRET } from './support/session';
import { E2E_PORTS } from './support/ports';

/*
 * End-to-end tests: the built dashboard (packages/web/dist, `npm run build`) served by the
 * real server on a fresh database, driven in Debian's Chromium. `npm run test:e2e` builds
 * first. With DATABASE_URL set the server uses that database instead of an embedded one.
 */
const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..');
const PORT = E2E_PORTS.server;
const baseURL = `http://127.0.0.1:${PORT}`;

// The config is evaluated in the runner and again in each worker; only the runner (which
// starts the server) wipes the previous run's embedded database.
if (!process.env.FLOTILLA_E2E_DATA_DIR) {
  const dataDir = join(here, '.tmp', 'data');
  if (!process.env.DATABASE_URL) rmSync(dataDir, { recursive: true, force: true });
  process.env.FLOTILLA_E2E_DATA_DIR = dataDir;
}

const serverEnv: Record<string, string> = {
  PORT: String(PORT),
  HOST: '127.0.0.1',
  FLOTILLA_ADMIN_PASSWORD: 'e2e-admin-password-123',
  // Test-only: e2e/reverify.spec.ts signs a session whose sign-in lies in the past.
  FLOTILLA_JWT_SECRET: E2E_JWT_SECRET,
  // Not the default port, so a developer's running `npm start` does not collide.
  FLOTILLA_EMBEDDED_PG_PORT: String(E2E_PORTS.embeddedPg),
  LOG_LEVEL: 'warn',
  // /deploy reads balena.yml contracts from the code host; the e2e server has no internet, so
  // the raw-file host is a closed local port (the discard port) and the fetch fails at once.
  FLOTILLA_CODE_HOST_RAW_URL: 'http://127.0.0.1:9',
  // Every mail goes over SMTP to the sink e2e/support/smtp-sink.mjs (and is recorded in the outbox too).
  SMTP_URL: `smtp://127.0.0.1:${E2E_PORTS.smtp}`,
  // Map tiles from a closed local port: the maps must work without tiles (offline), and the
  // CSP must allow exactly this origin's images.
  // (Not the discard port 9 here: Chromium refuses to fetch from it at all.)
  FLOTILLA_MAP_TILE_URL: `http://127.0.0.1:${E2E_PORTS.mapTiles}/tiles/{z}/{x}/{y}.png`,
  // SSH key import (preferences) reads <url>/<username>.keys: e2e/preferences.spec.ts serves
  // keys on this port while it runs; otherwise the port is closed.
  FLOTILLA_SSH_KEYS_URL: `http://127.0.0.1:${E2E_PORTS.sshKeys}`,
  ...(process.env.DATABASE_URL
    ? { DATABASE_URL: process.env.DATABASE_URL }
    : { FLOTILLA_DATA_DIR: process.env.FLOTILLA_E2E_DATA_DIR }),
};

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  testIgnore: ['**/.tmp/**', '**/node_modules/**'],
  // One Podman engine per run (packages/server/test/support/engine.ts); DOCKER_HOST for the specs.
  globalSetup: './support/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // JSON to e2e/.results.json, unless the caller names its own file (scripts/test-all.mjs
  // sets PLAYWRIGHT_JSON_OUTPUT_NAME; an explicit outputFile would override it).
  reporter: [['list'], ['json', process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? {} : { outputFile: join(here, '.results.json') }]],
  outputDir: join(here, '.tmp', 'test-results'),
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        // Debian's Chromium; Playwright's own browser downloads are never used.
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
  webServer: [
    {
      // The mail server the e2e Flotilla sends to over SMTP; tests read it over HTTP.
      command: 'node e2e/support/smtp-sink.mjs',
      env: { SMTP_SINK_PORT: String(E2E_PORTS.smtp), SMTP_SINK_HTTP_PORT: String(E2E_PORTS.smtpHttp) },
      cwd: repoRoot,
      url: `http://127.0.0.1:${E2E_PORTS.smtpHttp}/health`,
      timeout: 30_000,
      reuseExistingServer: false,
    },
    {
      // The bundle `npm run build` makes, as `npm start` runs it.
      command: 'node --enable-source-maps packages/server/dist/main.mjs',
      cwd: repoRoot,
      url: `${baseURL}/ping`,
      env: serverEnv,
      timeout: 180_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
    },
  ],
});
