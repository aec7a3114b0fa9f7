#!/usr/bin/env node
// `npm start`: builds the dashboard when its build is missing or older than its sources,
// bundles the server (a fraction of a second), then runs it: API + dashboard + embedded
// PostgreSQL unless DATABASE_URL is set. The terminal shows one line for the build and the
// server's banner; the build's own output goes to <FLOTILLA_DATA_DIR>/logs/build.log.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const web = join(root, 'packages/web');
const built = join(web, 'dist/index.html');
const dataDir = resolve(root, process.env.FLOTILLA_DATA_DIR ?? './data');
const logDir = join(dataDir, 'logs');
const buildLog = join(logDir, 'build.log');
const shown = relative(process.cwd(), buildLog) || buildLog;

/** Runs an npm script with its output appended to the build log; on failure shows the log's end. */
let logStarted = false;
function runLogged(args, what) {
  mkdirSync(logDir, { recursive: true });
  // A fresh log each start.
  const fd = openSync(buildLog, logStarted ? 'a' : 'w');
  logStarted = true;
  let r;
  try {
    r = spawnSync('npm', args, { stdio: ['ignore', fd, fd], cwd: root });
  } finally {
    closeSync(fd);
  }
  if (r.status === 0) return;
  const tail = readFileSync(buildLog, 'utf8').trimEnd().split('\n').slice(-30).join('\n');
  console.error(`[flotilla] ${what} failed (${shown}):\n${tail}`);
  process.exit(r.status ?? 1);
}

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
  console.log(`[flotilla] building the dashboard (first start or sources changed; details in ${shown})…`);
  runLogged(['run', 'build', '-w', '@flotilla/web'], 'the dashboard build');
}

runLogged(['run', 'build', '-w', '@flotilla/server'], 'bundling the server');

const server = spawn(process.execPath, ['--enable-source-maps', join(root, 'packages/server/dist/main.mjs')], {
  stdio: 'inherit',
  cwd: root,
});
// FLOTILLA_DEMO_DEVICES=N: a demo fleet with N simulated devices (scripts/demo-fleet.mjs).
let demo = null;
const demoCount = Number(process.env.FLOTILLA_DEMO_DEVICES ?? 0);
if (Number.isInteger(demoCount) && demoCount > 0) {
  const { startDemo } = await import('./demo-fleet.mjs');
  startDemo({ root, count: demoCount, dataDir }).then(
    (started) => (demo = started),
    (err) => console.error(`[demo] not started: ${err.message}`),
  );
}
// Forward Ctrl-C / SIGTERM so the server stops PostgreSQL cleanly before we exit.
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    demo?.seeded.cancel();
    demo?.child.kill(sig);
    server.kill(sig);
  });
}
server.on('exit', (code, signal) => {
  demo?.seeded.cancel();
  demo?.child.kill('SIGTERM');
  process.exit(code ?? (signal ? 0 : 1));
});
