#!/usr/bin/env node
// `npm start`: builds the dashboard when its build is missing or older than its sources,
// bundles the server (a fraction of a second), then runs it: API + dashboard + embedded
// PostgreSQL unless DATABASE_URL is set.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const web = join(root, 'packages/web');
const built = join(web, 'dist/index.html');

function newest(dir) {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const p = join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const sources = Math.max(newest(join(web, 'src')), newest(join(root, 'packages/model/src')), statSync(join(web, 'index.html')).mtimeMs);
if (!existsSync(built) || statSync(built).mtimeMs < sources) {
  console.log('[flotilla] building the dashboard (first start or sources changed)…');
  const r = spawnSync('npm', ['run', 'build', '-w', '@flotilla/web'], { stdio: 'inherit', cwd: root });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const bundle = spawnSync('npm', ['run', 'build', '-w', '@flotilla/server'], { stdio: ['ignore', 'ignore', 'inherit'], cwd: root });
if (bundle.status !== 0) process.exit(bundle.status ?? 1);

const server = spawn(process.execPath, ['--enable-source-maps', join(root, 'packages/server/dist/main.mjs')], {
  stdio: 'inherit',
  cwd: root,
});
// FLOTILLA_DEMO_DEVICES=N: a demo fleet with N simulated devices (scripts/demo-fleet.mjs).
let demo = null;
const demoCount = Number(process.env.FLOTILLA_DEMO_DEVICES ?? 0);
if (Number.isInteger(demoCount) && demoCount > 0) {
  const { startDemo } = await import('./demo-fleet.mjs');
  startDemo({ root, count: demoCount }).then(
    (child) => (demo = child),
    (err) => console.error(`[demo] not started: ${err.message}`),
  );
}
// Forward Ctrl-C / SIGTERM so the server stops PostgreSQL cleanly before we exit.
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    demo?.kill(sig);
    server.kill(sig);
  });
}
server.on('exit', (code, signal) => {
  demo?.kill('SIGTERM');
  process.exit(code ?? (signal ? 0 : 1));
});
