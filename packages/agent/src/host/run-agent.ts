import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { dirname } from 'node:path';
import { type Random } from '../core/backoff.js';
import { registeredConfig, saveConfig, type AgentConfig } from '../core/config.js';
import { Device, type DeviceEvent } from '../core/device.js';
import type { Metrics } from '../core/report.js';
import type { TargetSummary } from '../core/target-state.js';
import { Scheduler } from '../core/scheduler.js';
import { DeviceApi } from '../net/device-api.js';
import { HttpClient } from '../net/http-client.js';
import { hostMetricsSampler, readUndervolted } from './metrics.js';
import { localNetwork } from './network.js';
import { EngineHost, connectEngine, type EngineKind } from './engine.js';
import { createAgentLogs, type AgentLogs } from './container-logs.js';
import { hostTerminals } from './tty.js';
import { RecentLog } from '../core/diagnose.js';
import { HostDiagnostics } from '../core/diagnose-host.js';
import { builtInRebootNames, fetchRebootNames, loadAppliedHostConfig, runConfigHook, saveAppliedHostConfig } from './config-hook.js';
import { runOsUpdateHook } from './os-update-hook.js';
import { AGENT_VERSION } from '@flotilla/model';
import { launcherStateFile } from './launcher.js';
import { AgentSelfUpdate } from './self-update.js';

/**
 * `flotilla-agent run` as a library: one real device (this host) on the shared protocol
 * loop. With `engine` docker or podman it runs the release's services as containers on
 * that engine (`EngineHost`); reboot and shutdown act on the host only with `allowPower`,
 * otherwise they are refused. With `engine` none (the default) it runs no containers: a
 * new release's download is simulated and its services reported as running, and reboot
 * drops the link and restarts the agent in-process, shutdown stops the agent.
 */

/**
 * The supervisor version reported: the agent's own version (AGENT_VERSION, the same in the
 * single-file bundle's banner and in the supervisor release that carries the build). The
 * dashboard gates features on the balena supervisor version (service controls need ≥ 7, local
 * mode ≥ 4): the numbering continues the balena supervisor's.
 */
export const REPORTED_SUPERVISOR_VERSION = AGENT_VERSION;

export interface RunAgentOptions {
  config: AgentConfig;
  /** When given, generated identity and registration are written back to this file. */
  configPath?: string;
  log?(message: string): void;
  onEvent?(event: DeviceEvent, device: Device): void;
  onShutdown?(): void;
  /** Simulated download and apply times of an update (ms). */
  downloadMs?: number;
  applyMs?: number;
  metricsIntervalMs?: number;
  reportDebounceMs?: number;
  rebootOfflineMs?: number;
  sampleMetrics?: () => Metrics | null;
  random?: Random;
  /** Container engine (default none: simulated services). */
  engine?: EngineKind;
  /** Environment for engine discovery (DOCKER_HOST, XDG_RUNTIME_DIR); default process.env. */
  engineEnv?: NodeJS.ProcessEnv;
  /** Let reboot / shutdown actions really reboot or power off this host (engine mode). */
  allowPower?: boolean;
  /** `--allow-host-shell`: the web terminal may open a shell on this host (default off). */
  allowHostShell?: boolean;
  /** Seconds a container gets to stop before it is killed. */
  stopTimeoutS?: number;
  lockRetryMs?: number;
  statusIntervalMs?: number;
  /**
   * Log shipping (`POST /device/v2/{uuid}/log-stream`): off unless given (`flotilla-agent run` gives `{}`).
   * `cursorFile` keeps where each container's log was shipped up to (default: beside the
   * config file as `<config>.logs.json`; in memory without a config path).
   */
  logs?: false | { cursorFile?: string; graceMs?: number; flushMs?: number; syncMs?: number };
  /**
   * `--config-hook` / `FLOTILLA_CONFIG_HOOK`: an executable given the configuration
   * variables the agent does not apply itself as JSON on stdin when they change (docs/agent.md).
   */
  configHook?: string;
  /** How long the hook may run before it is killed and counted as failed (default 30 s). */
  configHookTimeoutMs?: number;
  /**
   * `--os-update-hook` / `FLOTILLA_OS_UPDATE_HOOK`: an executable that installs a host OS
   * version (docs/agent.md "Host OS updates"); without it OS updates are refused.
   */
  osUpdateHook?: string;
  /** How long the OS update hook may run before it is killed and the update failed (default 60 min). */
  osUpdateHookTimeoutMs?: number;
  /**
   * Where the host configuration the hook last accepted is kept (default: beside the config
   * file as `<config>.host-config.json`; in memory without a config path).
   */
  hostConfigFile?: string;
  /**
   * How this host reboots or powers off when allowed (`allowPower`); default `systemctl
   * reboot|poweroff`. Tests pass a recorder: they never reboot the machine.
   */
  hostPower?(kind: 'reboot' | 'shutdown'): void;
  /**
   * The self-update (issue 17 item 4; needs `configPath`): whether a launcher runs this build,
   * whether it is on probation, how to restart into a staged build and tell the launcher it is
   * healthy (runner.ts). Without it, a newer agent build in the target is refused and reported.
   */
  selfUpdate?: { underLauncher: boolean; probation: boolean; restart(): void; healthy?(): void };
}

/** `systemctl reboot|poweroff`, falling back to `reboot|poweroff` where there is no systemd. */
export function hostPowerCommand(kind: 'reboot' | 'shutdown', log: (m: string) => void): void {
  const verb = kind === 'reboot' ? 'reboot' : 'poweroff';
  log(`${kind}: running systemctl ${verb}`);
  execFile('systemctl', [verb], (err) => {
    if (!err) return;
    execFile(verb, [], (err2) => {
      if (err2) log(`${kind} failed: ${err2.message}`);
    });
  });
}

export interface RunningAgent {
  device: Device;
  config(): AgentConfig;
  stop(): Promise<void>;
}

export async function startAgent(o: RunAgentOptions): Promise<RunningAgent> {
  let config = o.config;
  // diagnose shows the agent's recent log lines.
  const recentLog = new RecentLog();
  const log = recentLog.tee(o.log ?? ((m: string) => console.log(`[flotilla-agent] ${m}`)));
  // The engine first: a start that cannot reach it changes nothing.
  const engine = o.engine ?? 'none';
  let containers: EngineHost | undefined;
  if (engine !== 'none') {
    const { docker, where } = await connectEngine(engine, o.engineEnv ?? process.env);
    log(`container engine (${engine}) at ${where}`);
    const trustedRegistries = [new URL(config.apiEndpoint).host, ...(config.registryEndpoint ? [config.registryEndpoint] : [])];
    containers = new EngineHost(docker, { uuid: config.uuid, deviceApiKey: config.deviceApiKey, trustedRegistries, log, ...(o.stopTimeoutS !== undefined ? { stopTimeoutS: o.stopTimeoutS } : {}) });
  }
  if (o.configPath) await saveConfig(o.configPath, config);
  const http = new HttpClient(config.apiEndpoint, { maxSockets: 4 });
  const hostConfigFile = o.hostConfigFile ?? (o.configPath ? `${o.configPath}.host-config.json` : undefined);
  const appliedHostConfig = hostConfigFile ? await loadAppliedHostConfig(hostConfigFile) : null;
  let rebootSchema: Promise<Set<string>> | null = null;
  const configHook = o.configHook;
  const osUpdateHook = o.osUpdateHook;
  const hostPower = o.hostPower ?? ((kind: 'reboot' | 'shutdown') => hostPowerCommand(kind, log));
  const scheduler = new Scheduler();
  const net = localNetwork();
  const logOpts = o.logs === false || o.logs === undefined ? null : o.logs;
  const cursorFile = logOpts?.cursorFile ?? (o.configPath ? `${o.configPath}.logs.json` : undefined);
  const logs: AgentLogs | null = logOpts
    ? createAgentLogs({
        apiEndpoint: config.apiEndpoint,
        uuid: config.uuid,
        deviceApiKey: config.deviceApiKey,
        scheduler,
        // Until the device is registered its key is refused: lines wait in the queue.
        enabled: config.deviceId !== undefined && config.apiKey === undefined,
        ...(containers ? { docker: containers.docker, containers } : {}),
        ...(cursorFile ? { cursorFile } : {}),
        ...(logOpts.graceMs !== undefined ? { graceMs: logOpts.graceMs } : {}),
        ...(logOpts.flushMs !== undefined ? { flushMs: logOpts.flushMs } : {}),
        ...(logOpts.syncMs !== undefined ? { syncMs: logOpts.syncMs } : {}),
        log,
      })
    : null;
  // eslint-disable-next-line prefer-const -- the device is made after the self-update that reports through it
  let device: Device;
  const selfUpdate = o.configPath
    ? new AgentSelfUpdate({
        ownVersion: REPORTED_SUPERVISOR_VERSION,
        stateFile: launcherStateFile(o.configPath),
        apiEndpoint: config.apiEndpoint,
        deviceApiKey: config.deviceApiKey,
        underLauncher: o.selfUpdate?.underLauncher ?? false,
        probation: o.selfUpdate?.probation ?? false,
        log,
        ...(logs ? { system: logs.system } : {}),
        notice: (progress, state) => device.setProvisioningNotice(progress, state),
        restart: () => (o.selfUpdate ? o.selfUpdate.restart() : undefined),
        ...(o.selfUpdate?.healthy ? { healthy: o.selfUpdate.healthy } : {}),
      })
    : null;
  device = new Device(
    {
      api: new DeviceApi(http),
      scheduler,
      random: o.random ?? Math.random,
      log: (_d, m) => log(m),
      onEvent: (d, e) => {
        logs?.onEvent(e);
        if (e.type === 'report') selfUpdate?.onReported();
        o.onEvent?.(e, d);
      },
    },
    {
      uuid: config.uuid,
      deviceApiKey: config.deviceApiKey,
      ...(config.apiKey !== undefined ? { provisioningKey: config.apiKey } : {}),
      ...(config.deviceId !== undefined ? { deviceId: config.deviceId } : {}),
      applicationId: config.applicationId,
      deviceType: config.deviceType,
      pollIntervalMs: config.appUpdatePollInterval,
      metricsIntervalMs: o.metricsIntervalMs ?? 60_000,
      reportDebounceMs: o.reportDebounceMs ?? 1_000,
      downloadMs: () => o.downloadMs ?? 5_000,
      applyMs: () => o.applyMs ?? 1_000,
      osVersion: config.osVersion ?? `${os.type()} ${os.release()}`,
      osVariant: config.osVariant ?? 'prod',
      supervisorVersion: REPORTED_SUPERVISOR_VERSION,
      ...(selfUpdate ? { onTarget: (t: TargetSummary) => selfUpdate.onTarget(t.agentBuild) } : {}),
      ipAddress: net.ipAddress,
      macAddress: net.macAddress,
      isUndervolted: readUndervolted() ?? false,
      sampleMetrics: o.sampleMetrics ?? hostMetricsSampler(),
      isLocked: () => existsSync(config.updateLockPath),
      rebootOfflineMs: () => o.rebootOfflineMs ?? 2_000,
      onRegistered: async (deviceId) => {
        config = registeredConfig(config, deviceId, Date.now());
        if (o.configPath) await saveConfig(o.configPath, config);
        log(`registered as device ${deviceId} (${config.uuid}); provisioning key dropped`);
      },
      ...(containers ? { containers: logs?.containers ?? containers } : {}),
      terminal: hostTerminals({ ...(containers ? { docker: containers.docker } : {}), uuid: config.uuid, allowHostShell: o.allowHostShell === true }),
      diagnostics: new HostDiagnostics({ uuid: config.uuid, docker: containers?.docker ?? null, dataDir: o.configPath ? dirname(o.configPath) : os.homedir(), recentLog }),
      ...(o.lockRetryMs !== undefined ? { lockRetryMs: o.lockRetryMs } : {}),
      ...(o.statusIntervalMs !== undefined ? { statusIntervalMs: o.statusIntervalMs } : {}),
      ...(containers && !o.allowPower
        ? { powerRefusal: (kind: 'reboot' | 'shutdown') => `${kind} refused: this agent runs on a real host and was started without --allow-power` }
        : {}),
      ...(containers && o.allowPower ? { hostPower } : {}),
      ...(configHook ? { applyHostConfig: (doc) => runConfigHook(configHook, doc, o.configHookTimeoutMs) } : {}),
      ...(osUpdateHook
        ? {
            osUpdate: {
              install: (params, current, progress, text) =>
                runOsUpdateHook(osUpdateHook, params, { uuid: config.uuid, deviceType: config.deviceType, osVersion: current }, { progress, ...(text ? { text } : {}) }, o.osUpdateHookTimeoutMs),
              // The version the host boots into is kept in config.json (balenaOS's agent reads it from the OS).
              installed: async (osVersion) => {
                config = { ...config, osVersion };
                if (o.configPath) await saveConfig(o.configPath, config);
              },
            },
          }
        : {}),
      // A fresh start: no OS update is under way, whatever a previous boot reported.
      clearHostUpdate: true,
      appliedHostConfig,
      ...(hostConfigFile ? { onHostConfigApplied: (applied: Record<string, string>) => saveAppliedHostConfig(hostConfigFile, applied) } : {}),
      // Read once per run (the device type does not change under a running agent); a failed read is tried again.
      rebootSchema: () => {
        rebootSchema ??= fetchRebootNames(http, config.deviceType).catch(() => {
          rebootSchema = null;
          return builtInRebootNames(config.deviceType);
        });
        return rebootSchema;
      },
      onShutdown: () => {
        log('shutdown requested: stopping the agent (the host keeps running)');
        o.onShutdown?.();
      },
    },
  );
  await logs?.start();
  await selfUpdate?.start();
  device.start();
  return {
    device,
    config: () => config,
    async stop() {
      device.stop();
      // An apply under way ends before its next step; nothing is left half-created after stop.
      await device.settled().catch(() => undefined);
      await logs?.stop();
      scheduler.stop();
      http.close();
    },
  };
}
