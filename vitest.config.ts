import { defineConfig } from 'vitest/config';

// Two tiers run by vitest: `unit` (pure specs beside the code, `*.spec.ts`) and `api` (the
// server on real PostgreSQL, through inject, real HTTP and the published balena-sdk:
// `*.api.test.ts` next to the feature or infra area they test in packages/server/src, and
// the cross-cutting ones in packages/server/test beside the shared harness). The e2e tier
// is Playwright (e2e/playwright.config.ts).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.spec.ts', 'scripts/**/*.spec.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'api',
          include: ['packages/server/{src,test}/**/*.api.test.ts'],
          environment: 'node',
          globalSetup: ['packages/server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          // Files share one module graph per worker: each file importing the whole server anew
          // cost about 3 s of the tier's time per file (docs/decisions.md, CI time after issue 18).
          // Every file builds its own apps and database; no file mocks modules.
          isolate: false,
          // One file at a time (vitest's default on 2 cores) unless FLOTILLA_API_WORKERS says
          // otherwise: with two, agent-containers' binary-agent test hung on its agent's exit in
          // two CI runs (docs/decisions.md, CI time).
          ...(process.env.FLOTILLA_API_WORKERS ? { maxWorkers: Number(process.env.FLOTILLA_API_WORKERS) } : {}),
        },
      },
      {
        test: {
          // Issue 21: whole-system tests on the BUILT server (packages/server/dist/main.mjs) as
          // separate processes — the two-node cluster behind HAProxy on Debian's PostgreSQL and
          // Redis, crash safety under kill -9. Heavy: one file at a time, after the e2e build.
          name: 'system',
          include: ['packages/server/test/system/**/*.system.test.ts'],
          environment: 'node',
          testTimeout: 600_000,
          hookTimeout: 300_000,
          pool: 'forks',
          maxWorkers: 1,
          fileParallelism: false,
        },
      },
    ],
  },
});
