#!/usr/bin/env node
// Gzip size of the JavaScript each first page downloads: the entry chunk, the lazy route
// module of that page, and everything they import statically. Budget: 350 kB (ARCHITECTURE.md).
// Sizes use zlib’s default level, as Vite’s build report does.
// Usage: node scripts/first-page-size.mjs [distDir]   (after `vite build`; exits 1 over budget)
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 350;
const dist = resolve(process.argv[2] ?? new URL('../dist', import.meta.url).pathname);
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));

const ROUTES = {
  '/login': 'src/app/routes/login.tsx',
  '/signup': 'src/app/routes/signup.tsx',
  '/signup/profile': 'src/app/routes/signup-profile.tsx',
  '/password-reset': 'src/app/routes/password-reset.tsx',
  '/user/verify-email/*': 'src/app/routes/verify-email.tsx',
  '/login/two-factor': 'src/app/routes/login-two-factor.tsx',
  '/saml (and its callbacks)': 'src/app/routes/saml.tsx',
  '/fleets': 'src/app/routes/applications.tsx',
  '/orgs/:id/fleets': 'src/app/routes/organization-applications.tsx',
  '/orgs': 'src/app/routes/orgs.tsx',
  '/orgs/:id': 'src/app/routes/organization-summary.tsx',
  '/orgs/:id/members': 'src/app/routes/organization-members.tsx',
  '/orgs/:id/members/:memberId': 'src/app/routes/member-summary.tsx',
  '/orgs/:id/teams': 'src/app/routes/organization-teams.tsx',
  '/orgs/:id/teams/:teamId': 'src/app/routes/team-summary.tsx',
  '(invitation)': 'src/app/routes/accept-invitation.tsx',
  // Nested routes: the application shell and its sub-page load together.
  '/fleets/:id': ['src/app/routes/fleet-shell.tsx', 'src/app/routes/fleet-summary.tsx'],
  '/fleets/:id/members': ['src/app/routes/fleet-shell.tsx', 'src/app/routes/fleet-members.tsx'],
  '/fleets/:id/teams': ['src/app/routes/fleet-shell.tsx', 'src/app/routes/fleet-teams.tsx'],
  '/fleets/:id/devices': ['src/app/routes/fleet-shell.tsx', 'src/app/routes/fleet-devices.tsx'],
  '/fleets/:id/envvars': ['src/app/routes/fleet-shell.tsx', 'src/app/routes/fleet-envvars.tsx'],
  '/devices/:uuid': ['src/app/routes/device-shell.tsx', 'src/app/routes/device-summary.tsx'],
  '/devices/:uuid/envvars': ['src/app/routes/device-shell.tsx', 'src/app/routes/device-envvars.tsx'],
  '/devices/:uuid/settings': ['src/app/routes/device-shell.tsx', 'src/app/routes/device-settings.tsx'],
  '/devices/:uuid/location': ['src/app/routes/device-shell.tsx', 'src/app/routes/device-location.tsx'],
  '/devices/:uuid/actions': ['src/app/routes/device-shell.tsx', 'src/app/routes/device-actions.tsx'],
  '/devices/:uuid/diagnostics': ['src/app/routes/device-shell.tsx', 'src/app/routes/device-diagnostics.tsx'],
  '/fleets/:id/config': ['src/app/routes/fleet-shell.tsx', 'src/app/routes/fleet-config.tsx'],
  '/devices/:uuid/config': ['src/app/routes/device-shell.tsx', 'src/app/routes/device-config.tsx'],
  '/admin': 'src/app/routes/admin.tsx',
  '/login/cli/*': 'src/app/routes/login-cli.tsx',
  '/login/oauth/:clientId': 'src/app/routes/login-oauth.tsx',
  '/preferences': 'src/app/routes/preferences.tsx',
  // Tabs other than details load as their own chunks.
  '/preferences/sshkeys': ['src/app/routes/preferences.tsx', 'src/features/preferences/components/ssh-keys-tab.tsx'],
  '/preferences/access-tokens': ['src/app/routes/preferences.tsx', 'src/features/preferences/components/access-tokens-tab.tsx'],
  '/preferences/experimental': ['src/app/routes/preferences.tsx', 'src/features/preferences/components/appearance-tab.tsx'],
  '(not found)': 'src/app/routes/not-found.tsx',
  // The route decides (SAML supported, a valid id) before the pages' chunk loads.
  '/identity-provider': ['src/app/routes/identity-provider.tsx', 'src/features/identity-providers/pages/identity-provider-pages.tsx'],
};

function closure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) closure(dep, seen);
  return seen;
}

const gzipKb = (file) => gzipSync(readFileSync(join(dist, file))).length / 1000;
const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
let over = false;
for (const [route, sources] of Object.entries(ROUTES)) {
  const chunks = new Set(closure(entry));
  for (const source of [sources].flat()) {
    if (!manifest[source]) throw new Error(`${source} is not a chunk of the build`);
    for (const c of closure(source)) chunks.add(c);
  }
  const kb = [...chunks].reduce((sum, k) => sum + gzipKb(manifest[k].file), 0);
  over ||= kb > BUDGET_KB;
  console.log(`${route.padEnd(28)} ${kb.toFixed(1).padStart(6)} kB gzip  (${chunks.size} chunks)${kb > BUDGET_KB ? '  OVER BUDGET' : ''}`);
}
process.exit(over ? 1 : 0);
