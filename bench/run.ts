// `npm run bench`: the Flotilla server against a bare node:http baseline measured in the
// same run. BENCH_QUICK=1 shortens every phase (smoke test); BENCH_VERBOSE=1 echoes the
// servers' output. BENCH_ONLY=<phase,…> runs only those phases (fleet = (a)–(e), device =
// (f)–(i), sim = (j), links = (k), table = (l), page = (m), registry = (n)–(o), rollout = (p), logs = (q), terminal = (t); see bench/README.md). Prints a table and
// writes bench/results/latest.json (a partial run merges its rows into it). Targets only
// label the figures: the exit code is non-zero only when a figure could not be measured.
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { loadBenchConfig } from './lib/config.js';
import { evaluateDeviceApi, measureDeviceApi } from './lib/device-api.js';
import { evaluate } from './lib/evaluate.js';
import { evaluateFirstLoad, measureFirstLoad } from './lib/first-load.js';
import { evaluateLogs, loadLogsConfig, measureLogs } from './lib/logs.js';
import { attempt, skipped } from './lib/outcome.js';
import { measureBaseline, measureFlotilla, prepareFlotilla, progress } from './lib/phases.js';
import { evaluateRegistry, loadRegistryConfig, measureRegistry } from './lib/registry.js';
import { formatReport, writeJson } from './lib/report.js';
import { evaluateRollout, loadRolloutConfig, measureRollout } from './lib/rollout.js';
import { evaluateTerminal, loadTerminalConfig, measureTerminal } from './lib/terminal.js';
import { evaluateScale, loadScaleConfig, measureScale, type ScaleFigures } from './lib/scale.js';
import { startBaseline, startFlotilla } from './lib/servers.js';
import { stopOnSignals } from './lib/stop-signals.js';

const RESULTS_FILE = fileURLToPath(new URL('./results/latest.json', import.meta.url));

/** Stops what was started, newest first; each task runs once (also on Ctrl-C). */
class Cleanup {
  #tasks: Task[] = [];

  /** Registers a stop task; the returned function runs it now instead of at the end. */
  add(name: string, stop: () => Promise<string>): () => Promise<void> {
    const task = { name, stop };
    this.#tasks.unshift(task);
    return () => this.#run(task);
  }

  async run(): Promise<void> {
    for (const task of [...this.#tasks]) await this.#run(task);
  }

  async #run(task: Task): Promise<void> {
    const index = this.#tasks.indexOf(task);
    if (index === -1) return;
    this.#tasks.splice(index, 1);
    const how = await task.stop().catch((err: unknown) => `failed to stop: ${String(err)}`);
    progress(`${task.name} stopped (${how})`);
  }
}

interface Task {
  name: string;
  stop: () => Promise<string>;
}

const PHASES = ['fleet', 'page', 'device', 'registry', 'rollout', 'logs', 'terminal', 'sim', 'links', 'table'] as const;
type Phase = (typeof PHASES)[number];

/** BENCH_ONLY=sim,table → those phases; unset → all. */
function selectedPhases(value: string | undefined): Set<Phase> {
  if (value === undefined || value.trim() === '') return new Set(PHASES);
  const names = value.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !(PHASES as readonly string[]).includes(n));
  if (unknown.length > 0) throw new Error(`BENCH_ONLY: unknown phase(s) ${unknown.join(', ')}; known: ${PHASES.join(', ')}`);
  return new Set(names as Phase[]);
}

async function main(): Promise<number> {
  const config = loadBenchConfig();
  const only = selectedPhases(process.env.BENCH_ONLY);
  const scaleConfig = loadScaleConfig(config.quick);
  const startedAt = new Date();
  const cleanup = new Cleanup();
  stopOnSignals(() => cleanup.run(), 'the servers and what the phases started');

  try {
    progress('starting the Flotilla server (embedded PostgreSQL, migrations, reference data)');
    const flotilla = await startFlotilla({ inspect: only.has('links') });
    cleanup.add('flotilla', flotilla.stop);
    const prepared = await prepareFlotilla(flotilla.server, config);

    // The baseline runs while the seeded server idles, so neither disturbs the other.
    let baseline: Awaited<ReturnType<typeof measureBaseline>> | undefined;
    if (only.has('fleet') || only.has('device')) {
      progress('starting the baseline server');
      const baselineServer = await startBaseline();
      const stopBaseline = cleanup.add('baseline', () => baselineServer.stop());
      baseline = await measureBaseline(baselineServer, config);
      await stopBaseline();
    }

    const figures = only.has('fleet') ? await measureFlotilla(flotilla.server, config, prepared) : undefined;
    // After (a)–(e), so a browser's requests do not weigh on the memory figures.
    const seeded = prepared.seeded;
    const firstLoad = !only.has('page')
      ? undefined
      : seeded.ok
        ? await attempt(() => measureFirstLoad(flotilla.server, seeded.value))
        : skipped<Awaited<ReturnType<typeof measureFirstLoad>>>(`seeding failed: ${seeded.error}`);
    // After (a)–(e), so the devices' rows and cache do not weigh on the memory figures.
    const deviceApi = only.has('device') ? await measureDeviceApi(flotilla.server, config, prepared.seeded) : undefined;
    // The registry's push and pull (issue 14): before the scale phases load the machine.
    const registry = !only.has('registry')
      ? undefined
      : seeded.ok
        ? await attempt(() => measureRegistry(flotilla.server.baseUrl, seeded.value, loadRegistryConfig(config.quick)))
        : skipped<Awaited<ReturnType<typeof measureRegistry>>>(`seeding failed: ${seeded.error}`);
    // 20 real agents on one Podman engine (issue 14), also before the scale phases.
    const rollout = !only.has('rollout')
      ? undefined
      : seeded.ok
        ? await attempt(() => measureRollout(flotilla.server.baseUrl, seeded.value, loadRolloutConfig(config.quick)))
        : skipped<Awaited<ReturnType<typeof measureRollout>>>(`seeding failed: ${seeded.error}`);
    // Issue 15: log lines from 1,000 simulated devices to a subscribed reader and storage.
    const logs = !only.has('logs')
      ? undefined
      : seeded.ok
        ? await attempt(() => measureLogs(flotilla.server.baseUrl, seeded.value, loadLogsConfig(config.quick)))
        : skipped<Awaited<ReturnType<typeof measureLogs>>>(`seeding failed: ${seeded.error}`);
    // One real agent and container (issue 15): a keystroke's round trip through the web terminal.
    const terminal = !only.has('terminal')
      ? undefined
      : seeded.ok
        ? await attempt(() => measureTerminal(flotilla.server.baseUrl, seeded.value, loadTerminalConfig(config.quick)))
        : skipped<Awaited<ReturnType<typeof measureTerminal>>>(`seeding failed: ${seeded.error}`);
    // Last: 100,000 table rows and thousands of simulated devices would weigh on everything else.
    const scale: ScaleFigures = await measureScale(flotilla, scaleConfig, prepared.seeded, {
      sim: only.has('sim'),
      links: only.has('links'),
      table: only.has('table'),
    });
    const crashed = flotilla.server.running
      ? undefined
      : `The Flotilla server exited during the run. Its last output:\n${flotilla.server.outputTail()}`;
    await cleanup.run();

    const rows = [
      ...(baseline && figures ? evaluate(baseline, figures, config.overloadConnections) : []),
      ...(baseline && deviceApi ? evaluateDeviceApi(baseline, deviceApi) : []),
      ...(firstLoad ? evaluateFirstLoad(firstLoad) : []),
      ...(registry ? evaluateRegistry(registry) : []),
      ...(rollout ? evaluateRollout(rollout) : []),
      ...(logs ? evaluateLogs(logs) : []),
      ...(terminal ? evaluateTerminal(terminal) : []),
      ...evaluateScale(scale),
    ];
    const header =
      `Flotilla bench ${startedAt.toISOString()}: ${config.quick ? 'QUICK smoke test, ' : ''}` +
      `${config.warmupSeconds} s warm-up, ${config.measureSeconds} s measured, ` +
      `node ${process.version}, ${availableParallelism()} CPUs` +
      (only.size < PHASES.length ? `, phases ${[...only].join(',')}` : '');
    process.stdout.write(formatReport(header, config, baseline, rows));
    if (crashed) process.stdout.write(`\n${crashed}\n`);

    const written = {
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      config: { ...config, scale: scaleConfig, phases: [...only] },
      environment: { node: process.version, cpus: availableParallelism(), platform: process.platform },
      results: rows,
      baseline,
      flotilla: figures ? { ...figures, seed: summariseSeed(prepared.seeded) } : undefined,
      deviceApi,
      firstLoad,
      registry,
      rollout,
      terminal,
      scale,
    };
    // A partial run (BENCH_ONLY) updates its own rows and figures in the last full results.
    await writeJson(RESULTS_FILE, only.size < PHASES.length ? await mergeResults(written) : written);
    progress(`results written to ${RESULTS_FILE}`);
    return rows.some((r) => r.status === 'ERROR') || crashed ? 1 : 0;
  } finally {
    await cleanup.run();
  }
}

/** The previous results with this run's rows (by id) and figures replaced. */
async function mergeResults(run: Record<string, unknown> & { results: { id: string }[]; scale: ScaleFigures }) {
  const previous = await readFile(RESULTS_FILE, 'utf8').then(
    (text) => JSON.parse(text) as Record<string, unknown> & { results?: { id: string }[]; scale?: ScaleFigures },
    () => ({}) as { results?: { id: string }[]; scale?: ScaleFigures },
  );
  const ids = new Set(run.results.map((r) => r.id));
  const results = [...(previous.results ?? []).filter((r) => !ids.has(r.id)), ...run.results].sort((a, b) => a.id.localeCompare(b.id));
  const defined = Object.fromEntries(Object.entries(run).filter(([, v]) => v !== undefined));
  return { ...previous, ...defined, results, scale: { ...previous.scale, ...run.scale } };
}

/** What the JSON keeps of the seeding (not the token). */
function summariseSeed(seeded: Awaited<ReturnType<typeof prepareFlotilla>>['seeded']) {
  return seeded.ok
    ? {
        ok: true,
        username: seeded.value.username,
        organizationId: seeded.value.organizationId,
        fleets: seeded.value.fleetCount,
      }
    : seeded;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
