#!/usr/bin/env node
// `npm test`: every tier — static checks (typecheck, lint), unit, api (real PostgreSQL,
// real HTTP, balena-sdk), system (the built server as processes: cluster, crash safety) and
// e2e (Playwright in Chromium) — then one summary line
// `N passed, N failed` summed over all tiers. Exit code 1 when anything failed.
// The static checks (one process each, mostly one core) run beside the unit tier (one vitest
// worker on the 2-core CI machine); after it, the api and system tiers run beside the build
// and the e2e tier (two lanes, below). Output of a tier that ran beside another is printed
// when it ends.
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
 * its output goes to a log file, printed when it ends (another tier prints meanwhile).
 */
async function vitestTier(project, background = false) {
  const file = join(out, `${project}.json`);
  const log = background ? join(out, `${project}.log`) : undefined;
  const args = ['vitest', 'run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${file}`];
  const r = await run(project, 'npx', args, {}, log);
  if (log) printLog(`${project}: npx ${args.join(' ')} (ran beside the e2e tier)`, log);
  const j = readJson(file);
  const passed = j?.numPassedTests ?? 0;
  // Tests that did not run count as failed: skipped ones (no test is skipped on purpose here)
  // and those a failing beforeAll left pending. A file that failed outside any test (its
  // setup, an unhandled error), a report that says `success: false` or a runner that crashed
  // before reporting counts as one failure at least, never as green.
  const notRun = j ? j.numFailedTests + j.numPendingTests + j.numTodoTests : 0;
  const failed = j ? notRun + (notRun === 0 && (r.status !== 0 || j.success === false || j.numFailedTestSuites > 0) ? 1 : 0) : 1;
  tiers.push({ name: project, passed, failed, seconds: r.seconds });
}

if (want('unit')) await vitestTier('unit');
for (const r of await staticChecks) {
  printLog(`${r.name}: ${r.cmd} (ran beside the unit tier)`, r.log);
  tiers.push({ name: r.name, passed: r.status === 0 ? 1 : 0, failed: r.status === 0 ? 0 : 1, seconds: r.seconds });
}

// After the unit tier, two lanes side by side (docs/decisions.md, "CI time (issue 21)"): on
// the 2-core machine each of the api, system and e2e tiers leaves a third to a half of the
// CPU idle (waiting on PostgreSQL, containers, process starts, the browser), so
//   lane A: the api tier, then the system tier (it needs the build);
//   lane B: the build, the first-page budget, then the e2e tier.
// Lane A's output goes to log files printed as each tier ends; lane B's e2e prints live.
// FLOTILLA_TEST_SERIAL=1 runs them one after the other, each printing live.
const serial = process.env.FLOTILLA_TEST_SERIAL === '1';
const needBuild = want('system') || want('e2e');
let buildDone;
const build = () =>
  (buildDone ??= (async () => {
    if (!needBuild) return true;
    const built = await run('build', 'npm', ['run', 'build']);
    if (built.status !== 0) tiers.push({ name: 'build', passed: 0, failed: 1, seconds: built.seconds });
    return built.status === 0;
  })());

const laneA = async () => {
  if (want('api')) await vitestTier('api', !serial);
  // Issue 21: the two-node cluster behind HAProxy and crash safety, as separate processes.
  if (want('system') && (await build())) await vitestTier('system', !serial);
};

const laneB = async () => {
  if (!(await build()) || !want('e2e')) return;
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
};

const lanesStarted = Date.now();
if (serial) {
  await laneA();
  await laneB();
} else {
  // Lane A's api tier needs no build: it runs while lane B builds.
  await Promise.all([laneA(), laneB()]);
}
const wall = Math.round((Date.now() - started) / 1000);

console.log('\n=== summary');
for (const t of tiers) console.log(`${t.name.padEnd(10)} ${String(t.passed).padStart(5)} passed ${String(t.failed).padStart(4)} failed  (${t.seconds} s)`);
console.log(`(${wall} s in all; the tiers after the unit tier took ${Math.round((Date.now() - lanesStarted) / 1000)} s side by side${serial ? ', run serially' : ''})`);
const passed = tiers.reduce((s, t) => s + t.passed, 0);
const failed = tiers.reduce((s, t) => s + t.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
