import { existsSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, devices } from '@playwright/test';
import { E2E_PORTS } from './support/ports';
import { e2eServerEnv } from './support/server-env';

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
const e2eDataDir = process.env.FLOTILLA_E2E_DATA_DIR ?? join(here, '.tmp', 'data');
if (!process.env.FLOTILLA_E2E_DATA_DIR) {
  if (!process.env.DATABASE_URL) rmSync(e2eDataDir, { recursive: true, force: true });
  process.env.FLOTILLA_E2E_DATA_DIR = e2eDataDir;
}

const serverEnv = e2eServerEnv(e2eDataDir);

// Debian's Chromium headless shell (package chromium-headless-shell): the same Blink engine
// without the browser's own UI, about a third less CPU per test on the 2-core CI machine than
// the full browser in headless mode. The full browser (package chromium) is the fallback;
// FLOTILLA_E2E_CHROMIUM names another binary.
const chromium =
  process.env.FLOTILLA_E2E_CHROMIUM ?? (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');

const browser = {
  ...devices['Desktop Chrome'],
  // Debian's Chromium; Playwright's own browser downloads are never used.
  launchOptions: {
    executablePath: chromium,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  },
};

const IGNORED = ['**/.tmp/**', '**/node_modules/**'];
/*
 * Specs that run alone (the `alone` project, after the `shared` one in `npm test`):
 * - the ones that run real agents on Podman: they load the machine most (engine, agents,
 *   containers), and every container network Podman makes or removes changes the host's
 *   interfaces, which Chromium may answer by aborting requests in flight (ERR_NETWORK_CHANGED).
 *   That this broke specs beside them was the first reading of failures later traced to a
 *   development build of the dashboard (docs/decisions.md, 2026-11-29); keeping them alone is
 *   the cautious choice, not a proven need;
 * - platform-news, which rewrites the build's build-time file that every node serves (the
 *   refresh banner would show in other specs' pages).
 * Every other spec makes its own users, organizations and fleets, and listens only on its
 * worker's own ports (support/ports.ts), so two of them can run side by side.
 */
const RUN_ALONE = [
  'add-device.spec.ts',
  'agent-self-update.spec.ts',
  'device-actions.spec.ts',
  'device-diagnostics.spec.ts',
  'device-logs.spec.ts',
  'device-terminal.spec.ts',
  'release-runs.spec.ts',
  'variables-agent.spec.ts',
  'platform-news.spec.ts',
].map((file) => `**/${file}`);

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  testIgnore: IGNORED,
  // One Podman engine per run (packages/server/test/support/engine.ts); DOCKER_HOST for the specs.
  globalSetup: './support/global-setup.ts',
  fullyParallel: false,
  // One spec file at a time unless FLOTILLA_E2E_WORKERS says more (scripts/test-all.mjs gives
  // the `shared` project two); the `alone` project is one at a time whatever this says.
  workers: Number(process.env.FLOTILLA_E2E_WORKERS ?? 1),
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Journeys take 10–90 s; on a loaded 2-core CI machine twice that. A timeout is not a
  // performance assertion (benchmarks are), so it is generous.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  // JSON to e2e/.results.json, unless the caller names its own file (scripts/test-all.mjs
  // sets PLAYWRIGHT_JSON_OUTPUT_NAME; an explicit outputFile would override it).
  reporter: [['list'], ['json', process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? {} : { outputFile: join(here, '.results.json') }]],
  outputDir: join(here, '.tmp', 'test-results'),
  use: {
    baseURL,
    // Tracing records a screencast of every test: it doubled the browser's CPU on the 2-core CI
    // machine. Off unless asked for (FLOTILLA_E2E_TRACE=retain-on-failure, or `--trace on`);
    // a failure still leaves its screenshot and page snapshot (error-context.md).
    trace: (process.env.FLOTILLA_E2E_TRACE as 'off' | 'on' | 'retain-on-failure' | undefined) ?? 'off',
    screenshot: 'only-on-failure',
    // The dashboard honours reduced motion (no spinning, no transitions): less CPU per page.
    contextOptions: { reducedMotion: 'reduce' },
  },
  projects: [
    // Specs that may run beside others (`npm test` gives them two workers: FLOTILLA_E2E_WORKERS).
    { name: 'shared', testIgnore: [...IGNORED, ...RUN_ALONE], use: browser },
    // Specs that must have the machine to themselves: one at a time, after the others.
    { name: 'alone', testMatch: RUN_ALONE, workers: 1, use: browser },
  ],
  webServer: [
    {
      // The servers' bus (REDIS_URL above): a throwaway redis-server without persistence.
      command: `redis-server --port ${E2E_PORTS.redis} --bind 127.0.0.1 --save '' --appendonly no`,
      port: E2E_PORTS.redis,
      timeout: 30_000,
      reuseExistingServer: false,
    },
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
