// ESLint flat config for the whole monorepo: `npm run lint` (= `eslint .`).
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import flotilla from './scripts/eslint/boundaries.js';

export default defineConfig(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'bench/results/**',
      '**/*.d.ts',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    // Server, agent, model, bench, e2e and scripts run on Node.
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { ...globals.node },
    },
  },
  {
    // The dashboard runs in the browser.
    files: ['packages/web/src/**'],
    languageOptions: {
      globals: { ...globals.browser },
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          args: 'after-used',
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
        },
      ],
    },
  },
  {
    // Boundaries (scripts/eslint/boundaries.js): packages reach each other by name only, the
    // model imports no other package, server features share only through their index.ts,
    // infra imports no feature, web features import neither each other nor are imported by
    // components/ and lib/.
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { flotilla },
    rules: { 'flotilla/boundaries': 'error' },
  },
  {
    // Hand-written SQL lives in a feature's `<domain>.repository.ts`: routes, services and
    // rules call repositories or the OData engine, never `db.query` / `tx.query`.
    files: ['packages/server/src/features/**/*.ts', 'packages/server/src/infra/auth/**/*.ts'],
    ignores: ['**/*.repository.ts', '**/*.spec.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.type='MemberExpression'][callee.property.name='query']",
          message: 'Hand-written SQL belongs in a <domain>.repository.ts (call a repository function or the OData engine).',
        },
      ],
    },
  },
  {
    // The dashboard's build (vite.config.ts runs in Node, not in the browser) pre-compresses
    // its files with the server's own module, so the build and a server make the same files
    // (docs/decisions.md, issue 13 boundaries). Node 20 cannot import the server package's
    // TypeScript by name, so this one build-time import stays relative.
    files: ['packages/web/vite.config.ts'],
    rules: { 'flotilla/boundaries': 'off' },
  },
);
