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
          // Files wait on PostgreSQL, HTTP, agents and containers more than on the CPU, so more
          // files run at once than vitest's default (cores - 1, a single file on a 2-core CI).
          // Each file has its own database cloned from the template (global-setup.ts).
          maxWorkers: Number(process.env.FLOTILLA_API_WORKERS ?? 2),
        },
      },
    ],
  },
});
