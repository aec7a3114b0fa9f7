import { errorBackoff, jittered, reconnectDelay, type Random } from './backoff.js';
import { fail, lockCheck, ok, parseActionMessage, parseTargetChanged, resultFrame, serviceSelector, type ActionMessage, type ActionResult } from './actions.js';
import { buildReport, diffReport, mergeSent, supervisorDeviceState, type DeviceFacts, type Metrics, type ReportFields, type ServiceStatus } from './report.js';
import type { Scheduler, Task } from './scheduler.js';
import type { ContainerHost, ServiceCommand, ServiceProgress } from './containers.js';
import { diffTarget, pollIntervalFrom, summarizeTarget, type TargetRelease, type TargetSummary } from './target-state.js';
import { nextUpdateEventAt, planUpdate, updateAt, type UpdatePlan, type UpdateSnapshot } from './update-progress.js';
import { diagnosticAction } from './diagnose.js';
import type { DeviceDiagnostics, DeviceRuntimeFacts } from './health-checks.js';
import { HttpError } from '../net/http-client.js';
import { changedConfig } from './log-system.js';
import type { DeviceApi } from '../net/device-api.js';
import { WsConnection, WsUpgradeError } from '../net/ws-client.js';
import { TerminalSessions, type TerminalHost } from './terminal.js';
import { changedEnvironments, hookDocument, hostConfig, isLocalMode, rebootAllowed, type ConfigHookDocument } from './device-config.js';
import { isOsUpdateParams, type OsUpdateParams } from '@flotilla/model';
import { NO_OS_UPDATE_HOOK, OS_UPDATE_UNDER_WAY, type HostUpdateFacts, type OsUpdateHost } from './os-update.js';

/**
 * One device's protocol loop: register → poll target state → simulate the update → report
 * → keep the cloud link and answer actions. Shared by `run` (one real device) and
 * `simulate` (thousands of virtual ones); everything that differs — metrics source, lock,
 * what a reboot means — comes in through `DeviceOptions`. All timing goes through the
 * shared `Scheduler`, so a device costs no timers of its own.
 */

export type DeviceEvent =
  | { type: 'registered'; deviceId: number; exchanged: boolean }
  | { type: 'register-failed'; error: string }
  | { type: 'poll'; status: 200 | 304 }
  | { type: 'poll-failed'; error: string }
  | { type: 'target'; commit: string | null }
  | { type: 'update'; phase: string; progress: number; commit: string }
  | { type: 'services'; status: Record<string, ServiceStatus> }
  | { type: 'report'; fields: ReportFields }
  | { type: 'report-failed'; error: string }
  | { type: 'link'; up: boolean; error?: string }
  | { type: 'action'; action: string; status: number }
  | { type: 'power'; kind: 'reboot' | 'shutdown' | 'back' }
  /** The target's configuration changed after the first target (the new values of the changed keys). */
  | { type: 'config'; changed: Record<string, string> }
  /** Local mode was switched on or off (the cloud's release is not applied while on). */
  | { type: 'local-mode'; on: boolean }
  /** The host accepted its configuration variables (config hook / simulator), `changed` the names applied. */
  | { type: 'host-config'; changed: string[]; config: Record<string, string> }
  /** The config hook failed: retried on the next change of the configuration. */
  | { type: 'host-config-failed'; error: string }
  /** Applied configuration needs a reboot: `waiting` while the update lock holds it back, `refused` when this host may not reboot. */
  | { type: 'config-reboot'; names: string[]; state: 'waiting' | 'rebooting' | 'refused'; reason?: string }
  /** Services recreated (engine) or restarted (simulation) because their environment changed: service → changed names. */
  | { type: 'environment'; changed: Record<string, string[]> }
  /** Host OS update (issue 17): a step of the install, its end (`installed` with the version reported after the reboot) or its failure. */
  | { type: 'os-update'; phase: 'progress' | 'installed' | 'failed'; progress: number | null; state: string; osVersion?: string };

export interface DeviceEnv {
  api: DeviceApi;
  scheduler: Scheduler;
  random: Random;
  log(device: Device, message: string): void;
  onEvent?(device: Device, event: DeviceEvent): void;
  /** Shares one object per release commit between devices (memory at 10,000 devices). */
  internRelease?(release: TargetRelease): TargetRelease;
}

export interface DeviceOptions {
  uuid: string;
  deviceApiKey: string;
  provisioningKey?: string;
  applicationId: number;
  deviceType: string;
  deviceId?: number;
  /** Poll interval until the target's BALENA_SUPERVISOR_POLL_INTERVAL says otherwise. */
  pollIntervalMs: number;
  /** When true the interval above wins over the fleet's config var. */
  pollIntervalFixed?: boolean;
  metricsIntervalMs?: number;
  reportDebounceMs?: number;
  downloadMs(): number;
  applyMs(): number;
  osVersion: string;
  osVariant: string;
  supervisorVersion: string;
  /** Each target the device receives (the agent's self-update reads its agent build). */
  onTarget?(target: TargetSummary): void;
  ipAddress: string;
  macAddress: string;
  isUndervolted?: boolean;
  latitude?: string;
  longitude?: string;
  sampleMetrics(): Metrics | null;
  isLocked(): boolean;
  /**
   * Status a service settles in some seconds after its release started (simulator: a few
   * one-shot services exit to Idle, a few are stopped). Every service first reports Running,
   * which is what marks the release as running on the server.
   */
  settledServiceStatus?(serviceName: string): ServiceStatus;
  /** How long a reboot keeps the device away. */
  rebootOfflineMs(): number;
  /** Called after the device registered (run: write config.json back). */
  onRegistered?(deviceId: number): Promise<void> | void;
  /** Called when a shutdown was executed (run: exit the process). */
  onShutdown?(): void;
  link?: boolean;
  /** The local address the cloud link connects from (`simulate --source-addresses`). */
  linkLocalAddress?: string;
  /**
   * Runs the release's services for real (`run --engine docker|podman`). Without it the
   * update is simulated from the clock (`simulate`, `run --engine none`).
   */
  containers?: ContainerHost;
  /** Reboot / shutdown: when set, the action is refused with this reason (a real host without --allow-power). */
  powerRefusal?(kind: 'reboot' | 'shutdown'): string | null;
  /** Reboot / shutdown of the real host (`--allow-power`); without it the device simulates being away. */
  hostPower?(kind: 'reboot' | 'shutdown'): void;
  /** Engine mode: how often the containers' states are read and reported when changed (ms, default 10 s). */
  statusIntervalMs?: number;
  /** How often a release deferred by the update lock is retried (ms, default 5 s). */
  lockRetryMs?: number;
  /** Opens terminals (a container exec, the host's PTY, a simulated shell); without it sessions are refused. */
  terminal?: TerminalHost;
  /** Health checks and diagnose (issue 15): the real host's or the simulator's; without it they answer 501. */
  diagnostics?: DeviceDiagnostics;
  /**
   * Applies the configuration variables the agent does not apply itself (run: the
   * `FLOTILLA_CONFIG_HOOK` executable; simulate: records them). Rejects when the host did
   * not take them (retried on the next change). Without it they are only logged as not applied.
   */
  applyHostConfig?(doc: ConfigHookDocument): Promise<void>;
  /** The host configuration last accepted (run: read back from disk), so a restart neither re-runs the hook nor reboots again. */
  appliedHostConfig?: Record<string, string> | null;
  /** Called once the host accepted a configuration (run: written to disk before any reboot). */
  onHostConfigApplied?(config: Record<string, string>): Promise<void> | void;
  /** The device type's configuration variables that need a reboot (`will_reboot` in its schema), BALENA_ spelling. */
  rebootSchema?(): Promise<ReadonlySet<string>>;
  /** Installs a host OS version (run: the --os-update-hook; simulate: mimicked). Without it the os-update action is refused. */
  osUpdate?: OsUpdateHost;
  /** The first report of this start clears the provisioning progress and state an OS update left (run: a fresh boot). */
  clearHostUpdate?: boolean;
}

/**
 * Polls come between 1× and 1.25× the interval: spread enough that devices started together
 * drift apart, and within the server's heartbeat grace (a third of the interval, model
 * `HEARTBEAT_GRACE`), so a device that polls on time never shows as timed out.
 */
export const POLL_JITTER = 0.25;

type Phase = 'new' | 'registering' | 'online' | 'offline' | 'off' | 'stopped';

export class Device {
  phase: Phase = 'new';
  deviceId: number | undefined;
  etag: string | null = null;
  target: TargetSummary | null = null;
  running: TargetRelease | null = null;
  installing: TargetRelease | null = null;
  plan: UpdatePlan | null = null;
  serviceStatus: Record<string, ServiceStatus> = {};
  sent: ReportFields | null = null;
  linkUp = false;
  /** The last successful poll: local time and the server's Date header (health checks). */
  lastPoll: { at: number; serverDate: number | null } | null = null;
  private provisioningKey: string | undefined;
  private pollIntervalMs: number;
  private pollFailures = 0;
  private reportFailures = 0;
  private registerFailures = 0;
  private linkAttempts = 0;
  private lastMetricsAt = -Infinity;
  private pollTask: Task | null = null;
  private reportTask: Task | null = null;
  private metricsTask: Task | null = null;
  private statusTask: Task | null = null;
  private applyDone: Promise<void> = Promise.resolve();
  private updateTask: Task | null = null;
  private linkTask: Task | null = null;
  private link: WsConnection | null = null;
  private terminals: TerminalSessions | null = null;
  private polling = false;
  private reporting = false;
  private reportAgain = false;
  // Engine mode (opts.containers): the apply under way and its per-service progress.
  private applying = false;
  private applyAgain = false;
  private applyFailures = 0;
  /** An action that removes or restarts containers is under way (purge, restart all): no status reads meanwhile. */
  private acting = false;
  private forceApply = false;
  /** Engine mode: the target has no release and the device's services are still to be removed. */
  private clearing = false;
  private engineUpdate: UpdateSnapshot | null = null;
  private installProgress: Record<string, ServiceProgress> | null = null;
  // Configuration (issue 16): local mode, the host's variables, the reboot they may need.
  private localMode = false;
  private appliedHostConfig: Record<string, string> | null;
  private failedHostConfig: string | null = null;
  private unappliedLogged: string | null = null;
  private hostConfigBusy = false;
  private hostConfigAgain = false;
  private pendingReboot: string[] | null = null;
  private rebootTask: Task | null = null;
  // Host OS update (issue 17): the OS version reported (changes after an update) and the update's progress.
  private osVersion: string;
  private hostUpdate: HostUpdateFacts | null = null;
  private supervisorVersion: string | undefined;
  private hostUpdating = false;
  /** What this device applied (the simulator shows it): the target's configuration, each service's environment, config reboots. */
  readonly applied: { config: Record<string, string>; hostConfig: Record<string, string> | null; environment: Record<string, Record<string, string>>; configReboots: number } = {
    config: {},
    hostConfig: null,
    environment: {},
    configReboots: 0,
  };

  constructor(
    readonly env: DeviceEnv,
    readonly opts: DeviceOptions,
  ) {
    this.deviceId = opts.deviceId;
    this.provisioningKey = opts.provisioningKey;
    this.pollIntervalMs = opts.pollIntervalMs;
    this.appliedHostConfig = opts.appliedHostConfig ?? null;
    this.applied.hostConfig = this.appliedHostConfig;
    this.osVersion = opts.osVersion;
    if (opts.clearHostUpdate) this.hostUpdate = { progress: null, state: null };
  }

  /** The host OS version this device reports. */
  get reportedOsVersion(): string {
    return this.osVersion;
  }

  get uuid(): string {
    return this.opts.uuid;
  }

  get currentPollIntervalMs(): number {
    return this.pollIntervalMs;
  }

  /** Starts the device after `delayMs` (the simulator staggers thousands of boots). */
  start(delayMs = 0): void {
    this.phase = 'registering';
    this.env.scheduler.after(delayMs, () => void this.register());
  }

  /** Stops every loop and closes the link; the device object can be dropped afterwards. */
  stop(): void {
    this.phase = 'stopped';
    this.cancelLoops();
    this.terminals?.closeAll();
    this.closeLink('agent stopping');
  }

  /** Polls right away (the `update` action, or a test that does not want to wait). */
  pollNow(): void {
    if (this.phase !== 'online') return;
    this.env.scheduler.cancel(this.pollTask);
    this.pollTask = this.env.scheduler.after(0, () => void this.poll());
  }

  /**
   * The server said the target may have changed: poll at a random moment within `withinMs`
   * (its spread for a large fleet), at least 100 ms away so every server process has heard of
   * the change; a poll already due sooner stays.
   */
  targetChanged(withinMs: number): void {
    if (this.phase !== 'online') return;
    const at = this.env.scheduler.now() + 100 + Math.floor(this.env.random() * withinMs);
    if (this.pollTask && !this.pollTask.cancelled && this.pollTask.at <= at) return;
    this.env.scheduler.cancel(this.pollTask);
    this.pollTask = this.env.scheduler.at(at, () => void this.poll());
  }

  private emit(event: DeviceEvent): void {
    this.env.onEvent?.(this, event);
  }

  // --- registration -------------------------------------------------------------------

  private async register(): Promise<void> {
    if (this.phase !== 'registering') return;
    if (this.deviceId !== undefined && this.provisioningKey === undefined) {
      this.goOnline();
      return;
    }
    if (this.provisioningKey === undefined) throw new Error('no provisioning key and no device id');
    try {
      const { id, exchanged } = await this.env.api.register({
        applicationId: this.opts.applicationId,
        uuid: this.uuid,
        deviceType: this.opts.deviceType,
        deviceApiKey: this.opts.deviceApiKey,
        provisioningKey: this.provisioningKey,
        supervisorVersion: this.opts.supervisorVersion,
        osVersion: this.opts.osVersion,
        osVariant: this.opts.osVariant,
        macAddress: this.opts.macAddress,
      });
      if (this.phase !== 'registering') return;
      this.deviceId = id;
      // Dialect §4.1 step 4: from now on only the device key; the provisioning key is dropped.
      this.provisioningKey = undefined;
      this.registerFailures = 0;
      await this.opts.onRegistered?.(id);
      this.emit({ type: 'registered', deviceId: id, exchanged });
      this.goOnline();
    } catch (err) {
      if (this.phase !== 'registering') return;
      this.registerFailures++;
      const message = errorText(err);
      this.emit({ type: 'register-failed', error: message });
      this.env.log(this, `registration failed (${message}); retrying`);
      this.env.scheduler.after(errorBackoff(60_000, this.registerFailures, 2_000), () => void this.register());
    }
  }

  private goOnline(): void {
    this.phase = 'online';
    this.connectLink();
    this.pollTask = this.env.scheduler.after(0, () => void this.poll());
    // First report right away: versions, network and metrics of a (re)started device.
    this.requestReport();
    this.scheduleMetrics();
    this.scheduleStatus();
  }

  /** Engine mode: the containers' real states every `statusIntervalMs` (crashes, restarts, exits). */
  private scheduleStatus(): void {
    if (!this.opts.containers) return;
    this.env.scheduler.cancel(this.statusTask);
    this.statusTask = this.env.scheduler.after(this.opts.statusIntervalMs ?? 10_000, () => {
      this.statusTask = null;
      if (this.phase !== 'online') return;
      void this.refreshServiceStatus().finally(() => this.scheduleStatus());
    });
  }

  /** Resolves once no apply is under way (the agent's stop waits for it). */
  settled(): Promise<void> {
    return this.applyDone;
  }

  // --- target state -------------------------------------------------------------------

  private async poll(): Promise<void> {
    this.pollTask = null;
    if (this.phase !== 'online' || this.polling) return;
    this.polling = true;
    try {
      const res = await this.env.api.pollState(this.uuid, this.opts.deviceApiKey, this.etag);
      if (this.phase !== 'online') return;
      this.pollFailures = 0;
      const serverDate = res.date === undefined ? NaN : Date.parse(res.date);
      this.lastPoll = { at: Date.now(), serverDate: Number.isFinite(serverDate) ? serverDate : null };
      this.emit({ type: 'poll', status: res.status });
      if (res.status === 200) {
        this.etag = res.etag;
        // With details (environment, labels, composition): the simulation records the environment too.
        this.applyTarget(summarizeTarget(res.body, this.uuid, this.opts.applicationId, true));
      }
      this.schedulePoll(jittered(this.pollIntervalMs, this.env.random, POLL_JITTER));
    } catch (err) {
      if (this.phase !== 'online') return;
      this.pollFailures++;
      this.emit({ type: 'poll-failed', error: errorText(err) });
      this.schedulePoll(errorBackoff(this.pollIntervalMs, this.pollFailures));
    } finally {
      this.polling = false;
    }
  }

  private schedulePoll(delayMs: number): void {
    this.env.scheduler.cancel(this.pollTask);
    this.pollTask = this.env.scheduler.after(delayMs, () => void this.poll());
  }

  private applyTarget(next: TargetSummary): void {
    this.opts.onTarget?.(next);
    const first = this.target === null;
    const previous = this.target?.config ?? {};
    const diff = diffTarget(this.target, next);
    if (next.release) next.release = this.env.internRelease?.(next.release) ?? next.release;
    this.target = next;
    if (!this.opts.pollIntervalFixed) this.pollIntervalMs = pollIntervalFrom(next.config, this.opts.pollIntervalMs);
    if (diff.releaseChanged || diff.servicesChanged) this.emit({ type: 'target', commit: next.release?.commit ?? null });
    if (!first && diff.configChanged) this.emit({ type: 'config', changed: changedConfig(previous, next.config) });
    this.applied.config = next.config;
    if (first || diff.configChanged) this.syncHostConfig();
    const wasLocal = this.localMode;
    this.localMode = isLocalMode(next.config);
    if (this.localMode !== wasLocal) {
      this.emit({ type: 'local-mode', on: this.localMode });
      this.env.log(this, this.localMode ? "local mode on: the cloud's release is not applied until it is switched off" : "local mode off: applying the cloud's release");
    }
    // Local mode (balena's supervisor alike): the services stay as they are; polling and reports go on.
    if (this.localMode) return;
    const want = next.release;
    if (wasLocal && want !== null) {
      // Back from local mode: whatever ran meanwhile is brought back to the cloud's release.
      if (this.opts.containers) this.startApply(want);
      else if (this.running?.commit === want.commit && this.plan === null) this.restartChanged(want);
      else if (this.installing?.commit !== want.commit) this.startUpdate(want);
      return;
    }
    if (want === null) {
      // No release to run (deleted, or a fleet without one): the engine's services go, as on balena.
      if (this.opts.containers && (first || diff.releaseChanged)) this.startApply(null);
      return;
    }
    if (this.running?.commit === want.commit && !diff.servicesChanged) return;
    if (this.opts.containers) {
      // The engine diffs containers itself: a changed service of the same release is replaced alone.
      this.startApply(want);
      return;
    }
    if (this.installing?.commit === want.commit) return;
    if (this.running?.commit === want.commit && this.plan === null) {
      // Same release, different services (a service added or rebuilt, an environment changed): restart them as the release's.
      this.restartChanged(want);
      return;
    }
    this.startUpdate(want);
  }

  /** Simulation: the same release with changed services runs as the new one (restarted, environment recorded). */
  private restartChanged(want: TargetRelease): void {
    this.running = want;
    this.resetServiceStatus(want);
    this.recordEnvironment(want);
    this.requestReport();
  }

  /** Records each service's applied environment and tells which services' environment changed. */
  private recordEnvironment(release: TargetRelease): void {
    const env: Record<string, Record<string, string>> = {};
    for (const s of release.services) if (s.environment) env[s.name] = s.environment;
    const changed = changedEnvironments(this.applied.environment, env);
    this.applied.environment = env;
    if (Object.keys(changed).length === 0) return;
    for (const [service, names] of Object.entries(changed)) this.env.log(this, `environment of ${service} changed (${names.join(', ')}): ${this.opts.containers ? 'recreated' : 'restarted'} with it`);
    this.emit({ type: 'environment', changed });
  }

  // --- configuration (issue 16) -------------------------------------------------------

  private syncHostConfig(): void {
    if (this.hostConfigBusy) {
      this.hostConfigAgain = true;
      return;
    }
    this.hostConfigBusy = true;
    void this.applyHostConfig().finally(() => {
      this.hostConfigBusy = false;
      if (this.hostConfigAgain && this.phase !== 'stopped') {
        this.hostConfigAgain = false;
        this.syncHostConfig();
      }
    });
  }

  /**
   * Gives the host the configuration variables the agent does not apply itself when they
   * differ from what it last accepted; a failure is retried on the next change only. Names
   * whose schema says will_reboot schedule a reboot once the host accepted them.
   */
  private async applyHostConfig(): Promise<void> {
    const target = this.target;
    if (target === null || this.phase === 'stopped') return;
    const next = hostConfig(target.config);
    const key = JSON.stringify(next);
    if (this.appliedHostConfig !== null && key === JSON.stringify(this.appliedHostConfig)) return;
    if (key === this.failedHostConfig) return;
    const apply = this.opts.applyHostConfig;
    if (!apply) {
      if (key !== this.unappliedLogged && Object.keys(next).length > 0) this.env.log(this, `configuration ${Object.keys(next).join(', ')} not applied on this host: no config hook (FLOTILLA_CONFIG_HOOK)`);
      this.unappliedLogged = key;
      return;
    }
    let reboot: ReadonlySet<string> = new Set();
    try {
      reboot = (await this.opts.rebootSchema?.()) ?? new Set();
    } catch (err) {
      this.env.log(this, `could not read which configuration needs a reboot (${errorText(err)})`);
    }
    const doc = hookDocument(this.uuid, this.opts.deviceType, this.appliedHostConfig, next, reboot);
    if (doc.changed.length === 0 && this.appliedHostConfig === null) {
      // Nothing for the host on a first boot: nothing to run.
      this.appliedHostConfig = next;
      this.applied.hostConfig = next;
      return;
    }
    try {
      await apply(doc);
    } catch (err) {
      if ((this.phase as Phase) === 'stopped') return;
      this.failedHostConfig = key;
      const error = errorText(err);
      this.env.log(this, `the config hook failed (${error}); retried on the next configuration change`);
      this.emit({ type: 'host-config-failed', error });
      return;
    }
    this.failedHostConfig = null;
    this.appliedHostConfig = next;
    this.applied.hostConfig = next;
    await this.opts.onHostConfigApplied?.(next);
    this.env.log(this, `host configuration applied (${doc.changed.join(', ')})`);
    this.emit({ type: 'host-config', changed: doc.changed, config: next });
    if (doc.reboot.length > 0) this.scheduleConfigReboot(doc.reboot);
  }

  /** A reboot that applied configuration needs: at once, or once the update lock is released (or overridden). */
  private scheduleConfigReboot(names: string[]): void {
    this.pendingReboot = [...new Set([...(this.pendingReboot ?? []), ...names])].sort();
    this.env.scheduler.cancel(this.rebootTask);
    this.rebootTask = null;
    this.tryConfigReboot(true);
  }

  private tryConfigReboot(announce: boolean): void {
    this.rebootTask = null;
    const names = this.pendingReboot;
    if (names === null || this.phase !== 'online') return;
    if (!rebootAllowed(this.opts.isLocked(), this.target?.config ?? {})) {
      if (announce) {
        this.env.log(this, `reboot to apply ${names.join(', ')} waits for the update lock`);
        this.emit({ type: 'config-reboot', names, state: 'waiting' });
      }
      this.rebootTask = this.env.scheduler.after(this.opts.lockRetryMs ?? 5_000, () => this.tryConfigReboot(false));
      return;
    }
    this.pendingReboot = null;
    const refused = this.opts.powerRefusal?.('reboot') ?? null;
    if (refused !== null) {
      this.env.log(this, `reboot to apply ${names.join(', ')} not done: ${refused}`);
      this.emit({ type: 'config-reboot', names, state: 'refused', reason: refused });
      return;
    }
    this.applied.configReboots++;
    this.env.log(this, `rebooting to apply ${names.join(', ')}`);
    this.emit({ type: 'config-reboot', names, state: 'rebooting' });
    if (this.opts.hostPower) this.opts.hostPower('reboot');
    else this.power('reboot');
  }

  // --- engine mode --------------------------------------------------------------------

  /** Engine mode: apply `release`, or with null (a target without a release) remove the device's containers (volumes stay). */
  private startApply(release: TargetRelease | null): void {
    // Local mode: nothing of the cloud's release is applied (retries and re-applies included).
    if (this.localMode) return;
    this.installing = release;
    this.clearing = release === null;
    this.env.scheduler.cancel(this.updateTask);
    this.updateTask = null;
    if (this.applying) {
      this.applyAgain = true;
      return;
    }
    this.applyDone = this.runApply();
  }

  private retryClear(delayMs: number): void {
    this.updateTask = this.env.scheduler.after(delayMs, () => {
      this.updateTask = null;
      if (this.clearing && this.installing === null) this.startApply(null);
    });
  }

  private async clearServices(host: ContainerHost): Promise<void> {
    if (!this.forceApply && this.locked()) {
      this.env.log(this, 'the target has no release; removing the services waits for the update lock');
      this.retryClear(this.opts.lockRetryMs ?? 5_000);
      return;
    }
    await host.clear();
    if ((this.phase as Phase) === 'stopped' || this.applyAgain) return;
    this.clearing = false;
    this.forceApply = false;
    this.applyFailures = 0;
    this.running = null;
    this.engineUpdate = null;
    this.installProgress = null;
    this.serviceStatus = await host.status();
    this.env.log(this, 'the target has no release: no service runs');
    this.requestReport(0);
  }

  private locked(): boolean {
    return !rebootAllowed(this.opts.isLocked(), this.target?.config ?? {});
  }

  private async runApply(): Promise<void> {
    const host = this.opts.containers!;
    this.applying = true;
    try {
      do {
        this.applyAgain = false;
        const release = this.installing;
        const target = this.target;
        if (release === null && this.clearing && this.phase === 'online') {
          await this.clearServices(host);
          continue;
        }
        if (release === null || target === null || target.appId === null || target.appUuid === null || this.phase !== 'online') return;
        const force = this.forceApply;
        this.env.log(this, `applying release ${release.commit.slice(0, 7)} (${release.services.length} service(s))`);
        this.engineUpdate = { phase: 'downloading', progress: 0 };
        this.emit({ type: 'update', phase: 'downloading', progress: 0, commit: release.commit });
        const result = await host.apply(
          { uuid: this.uuid, appId: target.appId, appUuid: target.appUuid, appName: target.appName ?? '', deviceType: this.opts.deviceType, release },
          {
            isLocked: () => !force && this.locked(),
            cancelled: () => this.phase === 'stopped',
            onProgress: (services) => this.onInstallProgress(release, services),
          },
        );
        if ((this.phase as Phase) === 'stopped') return;
        if (this.applyAgain) continue;
        this.applyFailures = 0;
        if (result === 'locked') {
          this.engineUpdate = { phase: 'applying changes', progress: 100 };
          this.emit({ type: 'update', phase: 'locked', progress: 100, commit: release.commit });
          this.requestReport(0);
          this.updateTask = this.env.scheduler.after(this.opts.lockRetryMs ?? 5_000, () => {
            this.updateTask = null;
            if (this.installing === release) this.startApply(release);
          });
          return;
        }
        this.forceApply = false;
        this.running = release;
        this.installing = null;
        this.engineUpdate = null;
        this.installProgress = null;
        this.recordEnvironment(release);
        this.serviceStatus = await host.status();
        this.env.log(this, `release ${release.commit.slice(0, 7)} is running`);
        this.emit({ type: 'update', phase: 'done', progress: 100, commit: release.commit });
        this.requestReport(0);
      } while (this.applyAgain);
    } catch (err) {
      if ((this.phase as Phase) === 'stopped') return;
      const release = this.installing;
      this.applyFailures++;
      // Nothing is under way until the retry: the device reports what runs.
      this.engineUpdate = null;
      this.installProgress = null;
      const message = errorText(err);
      this.env.log(this, `applying the release failed (${message}); retrying`);
      this.emit({ type: 'update', phase: 'failed', progress: 0, commit: release?.commit ?? '' });
      this.requestReport(0);
      if (release === null && this.clearing && this.phase === 'online') this.retryClear(errorBackoff(60_000, this.applyFailures, 2_000));
      if (release !== null && this.phase === 'online') {
        this.updateTask = this.env.scheduler.after(errorBackoff(60_000, this.applyFailures, 2_000), () => {
          this.updateTask = null;
          if (this.installing === release) this.startApply(release);
        });
      }
    } finally {
      this.applying = false;
      if (this.applyAgain && this.phase === 'online') {
        this.applyAgain = false;
        this.applyDone = this.runApply();
      }
    }
  }

  private onInstallProgress(release: TargetRelease, services: Record<string, ServiceProgress>): void {
    if (this.installing !== release) return;
    const list = Object.values(services);
    const downloading = list.filter((s) => s.status === 'Downloading');
    const phase = downloading.length > 0 ? 'downloading' : 'applying changes';
    const progress = downloading.length > 0 ? Math.floor(downloading.reduce((n, s) => n + (s.progress ?? 0), 0) / downloading.length) : 100;
    const changed = this.engineUpdate?.phase !== phase;
    this.engineUpdate = { phase, progress };
    this.installProgress = services;
    this.emit({ type: 'update', phase, progress, commit: release.commit });
    this.requestReport(changed ? 0 : undefined);
  }

  /** Reads the containers' real states and reports what changed (crashes, restarts, stops). */
  async refreshServiceStatus(): Promise<void> {
    const host = this.opts.containers;
    if (!host || this.applying || this.acting || this.phase !== 'online') return;
    try {
      const status = await host.status();
      if (this.applying || this.acting) return;
      const running = this.running;
      const missing = running?.services.filter((s) => !(s.name in status)) ?? [];
      if (running && this.installing === null && missing.length > 0) {
        // A container removed behind the agent's back: recreate it (the rest stays as it is).
        this.env.log(this, `no container for ${missing.map((s) => s.name).join(', ')}: re-applying the release`);
        this.startApply(running);
        return;
      }
      if (JSON.stringify(status) === JSON.stringify(this.serviceStatus)) return;
      this.serviceStatus = status;
      this.emit({ type: 'services', status });
      this.requestReport(0);
    } catch (err) {
      this.env.log(this, `reading the containers failed (${errorText(err)})`);
    }
  }

  private startUpdate(release: TargetRelease): void {
    const now = this.env.scheduler.now();
    this.installing = release;
    this.plan = planUpdate(this.running?.commit ?? null, release.commit, now, this.opts.downloadMs(), this.opts.applyMs());
    this.env.log(this, `updating to release ${release.commit.slice(0, 7)} (${release.services.length} service(s))`);
    this.env.scheduler.cancel(this.updateTask);
    this.updateTask = this.env.scheduler.after(0, () => this.updateStep());
  }

  private updateStep(): void {
    this.updateTask = null;
    const plan = this.plan;
    const release = this.installing;
    if (plan === null || release === null || this.phase !== 'online') return;
    const now = this.env.scheduler.now();
    const snap = updateAt(plan, now);
    this.emit({ type: 'update', phase: snap.phase, progress: snap.progress, commit: release.commit });
    if (snap.phase === 'done') {
      this.running = release;
      this.installing = null;
      this.plan = null;
      this.resetServiceStatus(release);
      this.recordEnvironment(release);
      this.env.log(this, `release ${release.commit.slice(0, 7)} is running`);
      this.requestReport(0);
      return;
    }
    this.requestReport(0);
    const at = nextUpdateEventAt(plan, now);
    if (at !== null) this.updateTask = this.env.scheduler.at(at, () => this.updateStep());
  }

  private resetServiceStatus(release: TargetRelease): void {
    const status: Record<string, ServiceStatus> = {};
    for (const s of release.services) status[s.name] = 'Running';
    this.serviceStatus = status;
    const settle = this.opts.settledServiceStatus;
    if (!settle) return;
    this.env.scheduler.after(15_000 + this.env.random() * 15_000, () => {
      if (this.phase !== 'online' || this.running !== release || this.serviceStatus !== status) return;
      const settled: Record<string, ServiceStatus> = {};
      for (const s of release.services) settled[s.name] = settle(s.name);
      this.serviceStatus = settled;
      this.requestReport();
    });
  }

  // --- state report -------------------------------------------------------------------

  /** Reports soon; several changes within the debounce window go as one PATCH. */
  requestReport(delayMs = this.opts.reportDebounceMs ?? 1_000): void {
    if (this.phase !== 'online') return;
    if (this.reporting) {
      this.reportAgain = true;
      return;
    }
    const at = this.env.scheduler.now() + delayMs;
    if (this.reportTask && !this.reportTask.cancelled && this.reportTask.at <= at) return;
    this.env.scheduler.cancel(this.reportTask);
    this.reportTask = this.env.scheduler.at(at, () => void this.report());
  }

  private scheduleMetrics(): void {
    const every = this.opts.metricsIntervalMs ?? 60_000;
    this.env.scheduler.cancel(this.metricsTask);
    this.metricsTask = this.env.scheduler.after(jittered(every, this.env.random, 0.1), () => {
      this.metricsTask = null;
      if (this.phase !== 'online') return;
      this.requestReport(0);
      this.scheduleMetrics();
    });
  }

  facts(includeMetrics: boolean): DeviceFacts {
    const update = this.opts.containers ? this.engineUpdate : this.plan ? updateAt(this.plan, this.env.scheduler.now()) : null;
    return {
      osVersion: this.osVersion,
      osVariant: this.opts.osVariant,
      supervisorVersion: this.supervisorVersion ?? this.opts.supervisorVersion,
      hostUpdate: this.hostUpdate,
      ipAddress: this.opts.ipAddress,
      macAddress: this.opts.macAddress,
      isUndervolted: this.opts.isUndervolted ?? false,
      ...(this.opts.latitude !== undefined && this.opts.longitude !== undefined ? { latitude: this.opts.latitude, longitude: this.opts.longitude } : {}),
      metrics: includeMetrics ? this.opts.sampleMetrics() : null,
      appUuid: this.target?.appUuid ?? null,
      running: this.running,
      serviceStatus: this.serviceStatus,
      installing: this.installing,
      update,
      installProgress: this.installProgress,
    };
  }

  /** What the health checks and diagnose read of this device's loop. */
  runtimeFacts(): DeviceRuntimeFacts {
    return {
      now: Date.now(),
      lastPollOkAt: this.lastPoll?.at ?? null,
      lastPollServerDate: this.lastPoll?.serverDate ?? null,
      pollIntervalMs: this.pollIntervalMs,
      linkUp: this.linkUp,
      serviceStatus: this.serviceStatus,
    };
  }

  /** The supervisor (agent) version reported from now on (the simulator's agent update). */
  setSupervisorVersion(version: string): void {
    this.supervisorVersion = version;
    this.requestReport(0);
  }

  /**
   * Reports an update step of the device itself as provisioning_progress /
   * provisioning_state (the agent's self-update; null, null clears them), unless a host OS
   * update is under way.
   */
  setProvisioningNotice(progress: number | null, state: string | null): void {
    if (this.hostUpdating) return;
    this.hostUpdate = { progress, state };
    this.requestReport(0);
  }

  private async report(): Promise<void> {
    this.reportTask = null;
    if (this.phase !== 'online') return;
    const now = this.env.scheduler.now();
    const withMetrics = now - this.lastMetricsAt >= (this.opts.metricsIntervalMs ?? 60_000);
    const fields = buildReport(this.facts(withMetrics));
    const diff = diffReport(this.sent, fields, withMetrics);
    if (withMetrics) this.lastMetricsAt = now;
    if (diff === null) return;
    this.reporting = true;
    try {
      await this.env.api.reportState(this.uuid, this.opts.deviceApiKey, diff);
      this.sent = mergeSent(this.sent, diff);
      this.reportFailures = 0;
      this.emit({ type: 'report', fields: diff });
    } catch (err) {
      this.reportFailures++;
      this.lastMetricsAt = -Infinity;
      this.emit({ type: 'report-failed', error: errorText(err) });
      this.reporting = false;
      if (this.phase === 'online') {
        this.env.scheduler.cancel(this.reportTask);
        this.reportTask = this.env.scheduler.after(errorBackoff(60_000, this.reportFailures, 2_000), () => void this.report());
      }
      return;
    } finally {
      this.reporting = false;
    }
    if (this.reportAgain) {
      this.reportAgain = false;
      this.requestReport(0);
    }
  }

  // --- cloud link ---------------------------------------------------------------------

  private connectLink(): void {
    if (this.opts.link === false || this.phase !== 'online' || this.link) return;
    const local = this.opts.linkLocalAddress !== undefined ? { localAddress: this.opts.linkLocalAddress } : {};
    const conn = new WsConnection(this.env.api.linkUrl(), { authorization: `Bearer ${this.opts.deviceApiKey}` }, {
      onOpen: () => {
        this.linkAttempts = 0;
        this.linkUp = true;
        this.emit({ type: 'link', up: true });
        // The server answers again (another node behind the load balancer, or it restarted):
        // a poll waiting out its error back-off (15 s and up) runs now (issue 21: a node killed
        // under load; the link is back within seconds, the next poll was 15 s away).
        if (this.pollFailures > 0) this.pollNow();
      },
      onMessage: (text) => this.onLinkMessage(conn, text),
      onClose: () => {
        this.terminals?.closeAll();
        if (this.link === conn) this.link = null;
        const wasUp = this.linkUp;
        this.linkUp = false;
        const error = conn.error ? errorText(conn.error) : undefined;
        if (wasUp || error) this.emit({ type: 'link', up: false, ...(error ? { error } : {}) });
        if (this.phase === 'online') {
          const delay = reconnectDelay(this.linkAttempts++, this.env.random);
          this.linkTask = this.env.scheduler.after(delay, () => {
            this.linkTask = null;
            this.connectLink();
          });
        }
      },
    }, local);
    this.link = conn;
  }

  private closeLink(reason: string): void {
    this.env.scheduler.cancel(this.linkTask);
    this.linkTask = null;
    const conn = this.link;
    this.link = null;
    conn?.close(1001, reason);
  }

  private onLinkMessage(conn: WsConnection, text: string): void {
    const notice = parseTargetChanged(text);
    if (notice) return this.targetChanged(notice.withinMs);
    this.terminals ??= new TerminalSessions(this.opts.terminal, (frame) => this.link?.send(frame), (m) => this.env.log(this, m));
    if (this.terminals.handle(text)) return;
    const msg = parseActionMessage(text);
    if (msg === null) return;
    void this.handleAction(msg).then((result) => {
      this.emit({ type: 'action', action: msg.action, status: result.status });
      conn.send(resultFrame(msg.id, result));
      if (result.status === 200 && (msg.action === 'reboot' || msg.action === 'shutdown')) {
        // Answer first, then go: the server relays the 200 before the link drops.
        const kind = msg.action;
        this.env.scheduler.after(100, () => (this.opts.hostPower ? this.opts.hostPower(kind) : this.power(kind)));
      }
    });
  }

  async handleAction(msg: ActionMessage): Promise<ActionResult> {
    const locked = lockCheck(msg.action, msg.params, this.opts.isLocked());
    if (locked) {
      this.env.log(this, `${msg.action} refused: update lock held`);
      return locked;
    }
    switch (msg.action) {
      case 'reboot':
      case 'shutdown': {
        const refused = this.opts.powerRefusal?.(msg.action) ?? null;
        if (refused !== null) {
          this.env.log(this, `${msg.action} refused: ${refused}`);
          return fail(403, refused);
        }
        this.env.log(this, `${msg.action} requested`);
        return ok();
      }
      case 'blink':
        this.env.log(this, 'identify: blinking the LED');
        return ok();
      case 'restart':
        this.env.log(this, 'restarting the fleet app services');
        if (this.opts.containers) return this.engineAction(() => this.opts.containers!.restartAll());
        if (this.running) this.resetServiceStatus(this.running);
        this.requestReport(0);
        return ok();
      case 'purge':
        this.env.log(this, 'purging the fleet app data (volumes)');
        if (this.opts.containers) {
          return this.engineAction(async () => {
            await this.opts.containers!.purge();
            // The services come back on the next apply, with empty volumes.
            const release = this.installing ?? this.running;
            this.running = null;
            if (release) this.startApply(release);
          });
        }
        return ok();
      case 'update': {
        this.env.log(this, 'update requested: polling the target state now');
        const forced = msg.params.force === true || (msg.params.data as { force?: boolean } | undefined)?.force === true;
        if (forced) this.etag = null;
        if (forced && this.opts.containers) {
          this.forceApply = true;
          if (this.installing && !this.applying) this.startApply(this.installing);
        }
        this.pollNow();
        return ok();
      }
      case 'restart-service':
      case 'start-service':
      case 'stop-service':
        return this.serviceAction(msg);
      case 'ping':
        return { status: 200, body: 'OK' };
      case 'device':
        return { status: 200, body: supervisorDeviceState(this.facts(false)) };
      case 'health-checks':
      case 'diagnose':
        return diagnosticAction(msg.action, this.opts.diagnostics, this.runtimeFacts());
      case 'os-update':
        return this.startOsUpdate(msg.params);
      default:
        // Every action of the model is a case above: a new one fails to compile until handled.
        return fail(400, `unknown action ${String(msg.action satisfies never)}`);
    }
  }

  private async engineAction(act: () => Promise<void>): Promise<ActionResult> {
    this.acting = true;
    try {
      await act();
    } catch (err) {
      return fail(500, errorText(err));
    } finally {
      this.acting = false;
    }
    await this.refreshServiceStatus();
    return ok();
  }

  private async serviceAction(msg: ActionMessage): Promise<ActionResult> {
    const { serviceName, imageId } = serviceSelector(msg.params);
    const appId = msg.params.appId ?? (msg.params.data as { appId?: unknown } | undefined)?.appId;
    if (appId !== undefined && this.target?.appId != null && Number(appId) !== this.target.appId) return fail(400, `app ${String(appId)} is not on this device`);
    const service = this.running?.services.find((s) => (serviceName !== undefined ? s.name === serviceName : s.imageId === imageId));
    if (service === undefined) return fail(404, `Service not found, a container must exist for ${msg.action.replace('-service', '')} to work.`);
    if (this.opts.containers) {
      const command = msg.action.replace('-service', '') as ServiceCommand;
      this.env.log(this, `${msg.action} ${service.name}`);
      let found: boolean;
      try {
        found = await this.opts.containers.serviceCommand(command, service.name);
      } catch (err) {
        return fail(500, errorText(err));
      }
      if (!found) return fail(404, `Service not found, a container must exist for ${command} to work.`);
      await this.refreshServiceStatus();
      return ok();
    }
    const next: ServiceStatus = msg.action === 'stop-service' ? 'Stopped' : 'Running';
    this.serviceStatus = { ...this.serviceStatus, [service.name]: next };
    this.env.log(this, `${msg.action} ${service.name}`);
    this.requestReport(0);
    return ok();
  }

  // --- host OS update (issue 17) -------------------------------------------------------

  /**
   * The `os-update` action: refused (the reason in the answer) without an OS update host, on
   * a host that may not reboot, or while one runs; otherwise answered at once and run: the
   * host installs while the device reports `provisioning_progress` / `provisioning_state`, then
   * it reboots and reports the new `os_version`.
   */
  private startOsUpdate(params: Record<string, unknown>): ActionResult {
    if (!isOsUpdateParams(params)) return fail(400, 'malformed OS update request');
    const host = this.opts.osUpdate;
    if (!host) {
      this.env.log(this, `OS update to ${params.targetVersion} refused: ${NO_OS_UPDATE_HOOK}`);
      return fail(501, NO_OS_UPDATE_HOOK);
    }
    const cannotReboot = this.opts.powerRefusal?.('reboot') ?? null;
    if (cannotReboot !== null) return fail(403, `this device cannot reboot into a new host OS (${cannotReboot})`);
    if (this.hostUpdating) return fail(409, OS_UPDATE_UNDER_WAY);
    this.hostUpdating = true;
    this.env.log(this, `host OS update to ${params.targetVersion} started`);
    this.setHostUpdate(0, 'Starting the host OS update', true);
    void this.runOsUpdate(host, params);
    return ok({ status: 'triggered' });
  }

  private setHostUpdate(progress: number | null, state: string, now = false): void {
    const changed = this.hostUpdate?.state !== state;
    this.hostUpdate = { progress, state };
    this.emit({ type: 'os-update', phase: 'progress', progress, state });
    this.requestReport(now || changed ? 0 : undefined);
  }

  private async runOsUpdate(host: OsUpdateHost, params: OsUpdateParams): Promise<void> {
    let version: string;
    try {
      version = await host.install(
        params,
        this.osVersion,
        (percent, state) => {
          if (this.phase !== 'stopped') this.setHostUpdate(percent, state || 'Updating the host OS');
        },
        (line) => this.env.log(this, `OS update: ${line}`),
      );
      await host.installed?.(version);
    } catch (err) {
      this.hostUpdating = false;
      if ((this.phase as Phase) === 'stopped') return;
      const error = errorText(err);
      this.env.log(this, `host OS update to ${params.targetVersion} failed (${error})`);
      this.hostUpdate = { progress: null, state: `OS update failed: ${error}`.slice(0, 255) };
      this.emit({ type: 'os-update', phase: 'failed', progress: null, state: this.hostUpdate.state! });
      this.requestReport(0);
      return;
    }
    if ((this.phase as Phase) === 'stopped') return;
    this.env.log(this, `host OS ${version} installed: rebooting into it`);
    this.setHostUpdate(100, 'Rebooting into the new host OS', true);
    this.emit({ type: 'os-update', phase: 'installed', progress: 100, state: 'Rebooting into the new host OS', osVersion: version });
    // The report of the last step goes first; then the reboot (a real host's or the in-process one).
    // Still under way until the reboot: a second update is refused meanwhile.
    this.env.scheduler.after(1_000, () => {
      this.hostUpdating = false;
      this.osVersion = version;
      this.hostUpdate = { progress: null, state: null };
      if (this.opts.hostPower) this.opts.hostPower('reboot');
      else this.power('reboot');
    });
  }

  // --- power --------------------------------------------------------------------------

  /** Reboot: the link drops, the device is away for a few seconds and comes back fresh. */
  power(kind: 'reboot' | 'shutdown'): void {
    if (this.phase !== 'online') return;
    this.emit({ type: 'power', kind });
    this.phase = kind === 'reboot' ? 'offline' : 'off';
    // Any reboot applies the configuration a config reboot was waiting for.
    this.pendingReboot = null;
    this.cancelLoops();
    this.closeLink(kind === 'reboot' ? 'rebooting' : 'shutting down');
    if (kind === 'shutdown') {
      this.opts.onShutdown?.();
      return;
    }
    this.env.scheduler.after(this.opts.rebootOfflineMs(), () => {
      if (this.phase !== 'offline') return;
      // A fresh boot: full target state and a full report.
      this.etag = null;
      this.sent = null;
      this.lastMetricsAt = -Infinity;
      this.linkAttempts = 0;
      if (this.running) this.resetServiceStatus(this.running);
      this.emit({ type: 'power', kind: 'back' });
      this.goOnline();
      if (this.plan) this.updateTask = this.env.scheduler.after(0, () => this.updateStep());
    });
  }

  private cancelLoops(): void {
    const s = this.env.scheduler;
    for (const t of [this.pollTask, this.reportTask, this.metricsTask, this.updateTask, this.linkTask, this.statusTask, this.rebootTask]) s.cancel(t);
    this.pollTask = this.reportTask = this.metricsTask = this.updateTask = this.linkTask = this.statusTask = this.rebootTask = null;
  }
}

function errorText(err: unknown): string {
  if (err instanceof HttpError) return `${err.status} ${err.body.slice(0, 120)}`;
  if (err instanceof WsUpgradeError) return `link refused ${err.status}`;
  return err instanceof Error ? err.message : String(err);
}
