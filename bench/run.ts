// `npm run bench`: the Flotilla server against a bare node:http baseline measured in the
// same run. BENCH_QUICK=1 shortens every phase (smoke test); BENCH_VERBOSE=1 echoes the
// servers' output. Prints a table and writes bench/results/latest.json. Targets only
// label the figures: the exit code is non-zero only when a figure could not be measured.
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { loadBenchConfig } from './lib/config.js';
import { evaluateDeviceApi, measureDeviceApi } from './lib/device-api.js';
import { evaluate } from './lib/evaluate.js';
import { measureBaseline, measureFlotilla, prepareFlotilla, progress } from './lib/phases.js';
import { formatReport, writeJson } from './lib/report.js';
import { startBaseline, startFlotilla } from './lib/servers.js';

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

async function main(): Promise<number> {
  const config = loadBenchConfig();
  const startedAt = new Date();
  const cleanup = new Cleanup();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void cleanup.run().finally(() => process.exit(130)));
  }

  try {
    progress('starting the Flotilla server (embedded PostgreSQL, migrations, reference data)');
    const flotilla = await startFlotilla();
    cleanup.add('flotilla', flotilla.stop);
    const prepared = await prepareFlotilla(flotilla.server, config);

    // The baseline runs while the seeded server idles, so neither disturbs the other.
    progress('starting the baseline server');
    const baselineServer = await startBaseline();
    const stopBaseline = cleanup.add('baseline', () => baselineServer.stop());
    const baseline = await measureBaseline(baselineServer, config);
    await stopBaseline();

    const figures = await measureFlotilla(flotilla.server, config, prepared);
    // After (a)–(e), so the devices' rows and cache do not weigh on the memory figures.
    const deviceApi = await measureDeviceApi(flotilla.server, config, prepared.seeded);
    const crashed = flotilla.server.running
      ? undefined
      : `The Flotilla server exited during the run. Its last output:\n${flotilla.server.outputTail()}`;
    await cleanup.run();

    const rows = [...evaluate(baseline, figures, config.overloadConnections), ...evaluateDeviceApi(baseline, deviceApi)];
    const header =
      `Flotilla bench ${startedAt.toISOString()}: ${config.quick ? 'QUICK smoke test, ' : ''}` +
      `${config.warmupSeconds} s warm-up, ${config.measureSeconds} s measured, ` +
      `node ${process.version}, ${availableParallelism()} CPUs`;
    process.stdout.write(formatReport(header, config, baseline, rows));
    if (crashed) process.stdout.write(`\n${crashed}\n`);

    await writeJson(RESULTS_FILE, {
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      config,
      environment: { node: process.version, cpus: availableParallelism(), platform: process.platform },
      results: rows,
      baseline,
      flotilla: { ...figures, seed: summariseSeed(prepared.seeded) },
      deviceApi,
    });
    progress(`results written to ${RESULTS_FILE}`);
    return rows.some((r) => r.status === 'ERROR') || crashed ? 1 : 0;
  } finally {
    await cleanup.run();
  }
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
