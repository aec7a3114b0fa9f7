import { existsSync } from 'node:fs';
import os from 'node:os';
import { type Random } from '../core/backoff.js';
import { registeredConfig, saveConfig, type AgentConfig } from '../core/config.js';
import { Device, type DeviceEvent } from '../core/device.js';
import type { Metrics } from '../core/report.js';
import { Scheduler } from '../core/scheduler.js';
import { DeviceApi } from '../net/device-api.js';
import { HttpClient } from '../net/http-client.js';
import { hostMetricsSampler, readUndervolted } from './metrics.js';
import { localNetwork } from './network.js';

/**
 * `flotilla-agent run` as a library: one real device (this host) on the shared protocol
 * loop. The agent runs no containers: when the target release changes it simulates the
 * download and reports the release's services as running. A reboot or shutdown action
 * never touches the host: reboot drops the link and restarts the agent in-process after a
 * short pause, shutdown stops the agent (the CLI then exits).
 */

/**
 * The supervisor version reported. The dashboard gates features on the balena supervisor
 * version (service controls need ≥ 7, local mode ≥ 4); this is the supervisor API level
 * the agent speaks, not the agent's own package version.
 */
export const REPORTED_SUPERVISOR_VERSION = '14.0.0';

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
}

export interface RunningAgent {
  device: Device;
  config(): AgentConfig;
  stop(): Promise<void>;
}

export async function startAgent(o: RunAgentOptions): Promise<RunningAgent> {
  let config = o.config;
  if (o.configPath) await saveConfig(o.configPath, config);
  const http = new HttpClient(config.apiEndpoint, { maxSockets: 4 });
  const scheduler = new Scheduler();
  const net = localNetwork();
  const log = o.log ?? ((m: string) => console.log(`[flotilla-agent] ${m}`));
  const device = new Device(
    {
      api: new DeviceApi(http),
      scheduler,
      random: o.random ?? Math.random,
      log: (_d, m) => log(m),
      onEvent: (d, e) => o.onEvent?.(e, d),
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
      onShutdown: () => {
        log('shutdown requested: stopping the agent (the host keeps running)');
        o.onShutdown?.();
      },
    },
  );
  device.start();
  return {
    device,
    config: () => config,
    async stop() {
      device.stop();
      scheduler.stop();
      http.close();
    },
  };
}
