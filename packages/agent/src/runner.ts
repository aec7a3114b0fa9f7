import { EXIT, type CommandRunner } from './cli.js';
import { ConfigError, loadConfig } from './core/config.js';
import type { DeviceEvent } from './core/device.js';
import { startAgent } from './host/run-agent.js';
import { EngineError } from './host/engine.js';
import { startSimulation } from './simulate/simulator.js';
import { launcherStateFile, runLauncher } from './host/launcher.js';
import { RESTART_INTO_STAGED } from './core/self-update.js';

/** The single-file build this process runs from (set by the bundle's entry; undefined from source). */
let singleFileBuild: string | undefined;

/** Called by the single-file bundle's entry with its own path: `run` then starts as the launcher (host/launcher.ts). */
export function setSingleFileBuild(path: string): void {
  singleFileBuild = path;
}

/** Resolves on SIGINT / SIGTERM (or on `also`), for long-lived commands. */
function untilStopped(also?: Promise<void>): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
    void also?.then(done);
  });
}

/** How many failures `simulate` prints with their cause before it only counts them. */
const SIMULATE_FAILURES_PRINTED = 100;

/** A poll, state report or registration that failed (printed with its cause). */
const isFailure = (e: DeviceEvent): e is Extract<DeviceEvent, { error: string }> =>
  e.type === 'poll-failed' || e.type === 'report-failed' || e.type === 'register-failed';

/** The bin's runner: the real `run` and `simulate`, until a signal stops them. */
export const runCommand: CommandRunner = async (command, out) => {
  if (command.kind === 'run') {
    const env = process.env;
    const child = env.FLOTILLA_AGENT_CHILD === '1';
    // A single-file build starts as the launcher, which runs the current build as its child (self-update).
    if (singleFileBuild !== undefined && !child && env.FLOTILLA_AGENT_LAUNCHER !== '0') {
      return runLauncher({
        self: singleFileBuild,
        args: process.argv.slice(2),
        stateFile: launcherStateFile(command.config),
        ...(env.FLOTILLA_AGENT_PROBATION_S ? { probationMs: Number(env.FLOTILLA_AGENT_PROBATION_S) * 1000 } : {}),
        log: (m) => out.stdout(`${new Date().toISOString()} ${m}\n`),
      });
    }
    if (child) {
      // The IPC channel to the launcher must not keep this process alive; a second signal (systemd
      // signals the launcher and its child alike) does not cut the stop short.
      process.channel?.unref();
      process.on('SIGTERM', () => {});
      process.on('SIGINT', () => {});
    }
    let restartRequested = false;
    let loaded;
    try {
      loaded = await loadConfig(command.config);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      out.stderr(`flotilla-agent: ${err.message}\n`);
      return EXIT.usage;
    }
    let shutdown: () => void = () => {};
    const shutdownRequested = new Promise<void>((resolve) => (shutdown = resolve));
    let agent;
    try {
      agent = await startAgent({
        engine: command.engine,
        allowPower: command.allowPower,
        allowHostShell: command.allowHostShell === true,
        ...(command.configHook !== undefined ? { configHook: command.configHook } : {}),
        ...(command.osUpdateHook !== undefined ? { osUpdateHook: command.osUpdateHook } : {}),
        // The real agent ships its device logs (the library form leaves them off unless asked).
        logs: {},
        config: loaded.config,
        configPath: command.config,
        log: (m) => out.stdout(`${new Date().toISOString()} ${m}\n`),
        onEvent: (e) => {
          if (isFailure(e)) out.stderr(`${new Date().toISOString()} ${e.type}: ${e.error}\n`);
          if (e.type === 'link') out.stdout(`${new Date().toISOString()} cloud link ${e.up ? 'up' : `down${e.error ? ` (${e.error})` : ''}`}\n`);
        },
        onShutdown: shutdown,
        selfUpdate: {
          underLauncher: child,
          probation: env.FLOTILLA_AGENT_PROBATION === '1',
          restart: () => {
            restartRequested = true;
            shutdown();
          },
          healthy: () => {
            process.send?.({ type: 'healthy' });
          },
        },
      });
    } catch (err) {
      if (!(err instanceof EngineError)) throw err;
      out.stderr(`flotilla-agent: ${err.message}\n`);
      return EXIT.failed;
    }
    out.stdout(`flotilla-agent: device ${loaded.config.uuid} → ${loaded.config.apiEndpoint}\n`);
    await untilStopped(shutdownRequested);
    const stopped = agent.stop();
    if (!child) {
      await stopped;
      return EXIT.ok;
    }
    // Under the launcher the process ends when the agent has stopped (or after 20 s): nothing
    // it leaves open (the link, the engine's event stream, the IPC channel) may hold the restart.
    const code = restartRequested ? RESTART_INTO_STAGED : EXIT.ok;
    await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, 20_000).unref())]);
    out.stdout(`${new Date().toISOString()} agent stopped${restartRequested ? ': restarting into the staged build' : ''}\n`);
    process.exit(code);
  }

  let sim;
  let failuresPrinted = 0;
  try {
    sim = await startSimulation({
      api: command.api,
      provisioningKey: command.provisioningKey,
      count: command.count,
      ...(command.fleetId !== undefined ? { fleetId: command.fleetId } : {}),
      ...(command.deviceType !== undefined ? { deviceType: command.deviceType } : {}),
      ...(command.seed !== undefined ? { seed: command.seed } : {}),
      ...(command.pollIntervalS !== undefined ? { pollIntervalMs: command.pollIntervalS * 1000 } : {}),
      ...(command.rampS !== undefined ? { rampMs: command.rampS * 1000 } : {}),
      ...(command.noLink ? { link: false } : {}),
      ...(command.logRate !== undefined ? { logRate: command.logRate } : {}),
      ...(command.noLogs ? { logs: false as const } : {}),
      ...(command.failAgentUpdate ? { failAgentUpdate: true } : {}),
      ...(command.statsFile !== undefined ? { statsFile: command.statsFile } : {}),
      ...(command.appliedFile !== undefined ? { appliedFile: command.appliedFile } : {}),
      ...(command.sourceAddresses !== undefined ? { sourceAddresses: command.sourceAddresses } : {}),
      locations: command.locations === true,
      log: command.quiet ? () => {} : (m) => out.stdout(`${m}\n`),
      // Failures say why even with --quiet (the summary only counts them): the first
      // SIMULATE_FAILURES_PRINTED, then the count goes on in the summary alone.
      onEvent: (e, d) => {
        if (!isFailure(e)) return;
        failuresPrinted++;
        if (failuresPrinted <= SIMULATE_FAILURES_PRINTED) out.stderr(`${new Date().toISOString()} [${d.uuid.slice(0, 7)}] ${e.type}: ${e.error}\n`);
        if (failuresPrinted === SIMULATE_FAILURES_PRINTED) out.stderr(`${new Date().toISOString()} further failures are counted in the summary only\n`);
      },
    });
  } catch (err) {
    out.stderr(`flotilla-agent: ${err instanceof Error ? err.message : String(err)}\n`);
    return EXIT.failed;
  }
  out.stdout(`flotilla-agent: simulating ${command.count} device(s) in fleet ${sim.fleetId} (${sim.deviceType}) against ${command.api}\n`);
  const summary = setInterval(() => {
    const s = sim.stats();
    out.stdout(
      `[simulate] online ${s.online}/${s.devices}, links ${s.linked}, updating ${s.updating}, polls ${s.polls} (${s.pollErrors} failed), reports ${s.reports} (${s.reportErrors} failed)\n`,
    );
  }, 10_000);
  await untilStopped();
  clearInterval(summary);
  await sim.stop();
  return EXIT.ok;
};
