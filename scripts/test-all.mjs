#!/usr/bin/env node
// `npm test`: every tier — static checks (typecheck, lint), unit, api (real PostgreSQL,
// real HTTP, balena-sdk), system (the built server as processes: cluster, crash safety) and
// e2e (Playwright in Chromium) — then one summary line
// `N passed, N failed` summed over all tiers. Exit code 1 when anything failed.
// The static checks (one process each, mostly one core) run beside the unit tier (one vitest
// worker on the 2-core CI machine); after it, the build and the system tier run beside the
// api tier, then the e2e tier alone. Output of a tier that ran beside another is printed when
// it ends.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, '.tmp/test-results');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const started = Date.now();
const only = process.argv.slice(2); // e.g. `npm test -- unit api`
const want = (tier) => only.length === 0 || only.includes(tier);

const tiers = [];
/** Runs a command; its output goes to the terminal, or to `logFile` when given. */
function run(name, cmd, args, env = {}, logFile) {
  if (!logFile) console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  const fd = logFile ? openSync(logFile, 'w') : undefined;
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: fd === undefined ? 'inherit' : ['ignore', fd, fd], cwd: root, env: { ...process.env, ...env } });
    const done = (status) => {
      if (fd !== undefined) closeSync(fd);
      resolve({ status, seconds: Math.round((Date.now() - started) / 1000) });
    };
    child.on('error', (err) => {
      console.error(`${name}: ${err.message}`);
      done(1);
    });
    child.on('close', (code) => done(code ?? 1));
  });
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

// Static checks in the background, one after the other, while the unit tier runs.
const staticChecks = (async () => {
  const results = [];
  if (!want('static')) return results;
  for (const [name, args] of [
    ['typecheck', ['run', 'typecheck']],
    ['lint', ['run', 'lint']],
  ]) {
    const log = join(out, `${name}.log`);
    const r = await run(name, 'npm', args, {}, log);
    results.push({ name, log, cmd: `npm ${args.join(' ')}`, ...r });
  }
  return results;
})();

/** Prints a tier's log that was written to a file while other tiers ran. */
function printLog(header, log) {
  console.log(`\n=== ${header}`);
  try {
    process.stdout.write(readFileSync(log, 'utf8'));
  } catch {
    console.log('(no output)');
  }
}

/**
 * One vitest project as a tier: passed and failed from its JSON report. With `background`
 * its output goes to `.tmp/test-results/<project>.log` (another tier prints meanwhile); the
 * caller prints it.
 */
async function vitestTier(project, background = false) {
  const file = join(out, `${project}.json`);
  const log = background ? join(out, `${project}.log`) : undefined;
  const args = ['vitest', 'run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${file}`];
  const r = await run(project, 'npx', args, {}, log);
  const j = readJson(file);
  const passed = j?.numPassedTests ?? 0;
  // Tests that did not run count as failed: skipped ones (no test is skipped on purpose here)
  // and those a failing beforeAll left pending. A file that failed outside any test (its
  // setup, an unhandled error), a report that says `success: false` or a runner that crashed
  // before reporting counts as one failure at least, never as green.
  const notRun = j ? j.numFailedTests + j.numPendingTests + j.numTodoTests : 0;
  const failed = j ? notRun + (notRun === 0 && (r.status !== 0 || j.success === false || j.numFailedTestSuites > 0) ? 1 : 0) : 1;
  tiers.push({ name: project, passed, failed, seconds: r.seconds });
  return log ? () => printLog(`${project}: npx ${args.join(' ')} (ran beside the api tier)`, log) : () => undefined;
}

if (want('unit')) await vitestTier('unit');
for (const r of await staticChecks) {
  printLog(`${r.name}: ${r.cmd} (ran beside the unit tier)`, r.log);
  tiers.push({ name: r.name, passed: r.status === 0 ? 1 : 0, failed: r.status === 0 ? 0 : 1, seconds: r.seconds });
}

// After the unit tier, the api tier beside the build and the system tier (docs/decisions.md,
// "CI time (issue 21)"): on the 2-core machine each of them leaves about half of the CPU idle
// (the api tier waits on PostgreSQL, the system tier on process starts and crash recovery).
// The api tier prints live; the system tier's output goes to a log file printed after the
// api tier. The e2e tier runs alone: beside the api tier its Chromium aborted requests
// (ERR_NETWORK_CHANGED) whenever the api tier's Podman made or removed a network, and both
// tiers ran a third slower. FLOTILLA_TEST_SERIAL=1 runs everything one after the other.
const serial = process.env.FLOTILLA_TEST_SERIAL === '1';
let built = { status: 0 };
let printSystem = () => undefined;
const buildAndSystem = async () => {
  if (!want('system') && !want('e2e')) return;
  // The system and e2e tiers run the built product (dashboard bundle and server/dist/main.mjs).
  built = await run('build', 'npm', ['run', 'build'], {}, serial ? undefined : join(out, 'build.log'));
  if (built.status !== 0) {
    if (!serial) printLog('build: npm run build', join(out, 'build.log'));
    tiers.push({ name: 'build', passed: 0, failed: 1, seconds: built.seconds });
    return;
  }
  // Issue 21: the two-node cluster behind HAProxy and crash safety, as separate processes.
  if (want('system')) printSystem = await vitestTier('system', !serial);
};

const phaseStarted = Date.now();
if (serial) {
  if (want('api')) await vitestTier('api');
  await buildAndSystem();
} else {
  await Promise.all([want('api') ? vitestTier('api') : undefined, buildAndSystem()]);
  printSystem();
}
const phaseSeconds = Math.round((Date.now() - phaseStarted) / 1000);

if (want('e2e') && built.status === 0) {
  const file = join(out, 'e2e.json');
  // The 350 kB first-page budget (ARCHITECTURE.md), measured on the build the e2e tier uses.
  const budget = await run('first-page budget', 'node', ['packages/web/scripts/first-page-size.mjs']);
  tiers.push({ name: 'budget', passed: budget.status === 0 ? 1 : 0, failed: budget.status === 0 ? 0 : 1, seconds: budget.seconds });
  const r = await run('e2e', 'npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts'], { PLAYWRIGHT_JSON_OUTPUT_NAME: file });
  const j = readJson(file);
  const passed = j?.stats?.expected ?? 0;
  let failed = j ? (j.stats.unexpected ?? 0) + (j.stats.flaky ?? 0) : 1;
  if (r.status !== 0 && failed === 0) failed = 1;
  tiers.push({ name: 'e2e', passed, failed, seconds: r.seconds });
}
const wall = Math.round((Date.now() - started) / 1000);

console.log('\n=== summary');
for (const t of tiers) console.log(`${t.name.padEnd(10)} ${String(t.passed).padStart(5)} passed ${String(t.failed).padStart(4)} failed  (${t.seconds} s)`);
console.log(`(${wall} s in all; api, build and system ${serial ? 'one after the other' : 'side by side'}: ${phaseSeconds} s)`);
const passed = tiers.reduce((s, t) => s + t.passed, 0);
const failed = tiers.reduce((s, t) => s + t.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
