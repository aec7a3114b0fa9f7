import { chmod, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { decideSelfUpdate, verifyBuild, type FailedBuild } from '../core/self-update.js';
import type { AgentBuild } from '../core/target-state.js';
import { readLauncherState, writeLauncherState } from './launcher.js';

export interface SelfUpdateOptions {
  /** The version this build reports (AGENT_VERSION). */
  ownVersion: string;
  /** The launcher's state file (`<config>.agent.json`); builds are staged beside it. */
  stateFile: string;
  apiEndpoint: string;
  deviceApiKey: string;
  /** Whether a launcher runs this build (FLOTILLA_AGENT_CHILD=1): without one the agent cannot restart into a new build. */
  underLauncher: boolean;
  /** Whether this build runs on probation (FLOTILLA_AGENT_PROBATION=1): it tells the launcher once it is healthy. */
  probation: boolean;
  log(message: string): void;
  /** A device log line (shown on the device's logs page). */
  system?(message: string, isStdErr?: boolean): void;
  /** Reports the update's step as provisioning_progress / provisioning_state (null, null clears). */
  notice(progress: number | null, state: string | null): void;
  /** Stops the agent and exits with RESTART_INTO_STAGED (its launcher starts the staged build). */
  restart(): void;
  /** Tells the launcher this build is healthy (process.send). */
  healthy?(): void;
  fetchImpl?: typeof fetch;
}

const MAX_DOWNLOAD = 32 * 1024 * 1024;

/**
 * The running agent's side of the self-update (issue 17 item 4): when the target's supervisor
 * release carries an agent build newer than this one, download it, verify its sha256 and
 * banner, stage it beside the config and restart into it through the launcher; a build that
 * fails (checksum, start) is reported (provisioning_state and a device log line) and not tried
 * again while the target names it.
 */
export class AgentSelfUpdate {
  private busy = false;
  private failed: FailedBuild | null = null;
  private toldHealthy = false;
  private noticeShown: string | null = null;

  constructor(private readonly o: SelfUpdateOptions) {}

  /** Reads the launcher's record: a failure the previous build left is reported once. */
  async start(): Promise<void> {
    const state = await readLauncherState(this.o.stateFile);
    this.failed = state.failed;
    if (state.failed && !state.failureReported) {
      const text = `Agent update to ${state.failed.version} failed: ${state.failed.reason}; running agent ${this.o.ownVersion}`;
      this.o.log(text);
      this.o.system?.(text, true);
      this.o.notice(null, text.slice(0, 255));
      await writeLauncherState(this.o.stateFile, { ...state, failureReported: true });
    }
  }

  /** The device reported its state: a build on probation is healthy now. */
  onReported(): void {
    if (!this.o.probation || this.toldHealthy) return;
    this.toldHealthy = true;
    this.o.log(`agent ${this.o.ownVersion} is up and reporting: healthy`);
    this.o.system?.(`Agent updated to ${this.o.ownVersion}`);
    this.o.notice(null, null);
    this.o.healthy?.();
  }

  /** The target's agent build (each target). */
  onTarget(build: AgentBuild | null | undefined): void {
    const decision = decideSelfUpdate(this.o.ownVersion, build, this.failed);
    if (decision.kind === 'failed-before') {
      if (this.noticeShown !== decision.build.sha256) {
        this.noticeShown = decision.build.sha256;
        this.o.log(`agent ${decision.build.version} failed before (${decision.failed.reason}): not installed again`);
      }
      return;
    }
    if (decision.kind !== 'install' || this.busy) return;
    this.busy = true;
    void this.install(decision.build).finally(() => {
      this.busy = false;
    });
  }

  private async fail(build: AgentBuild, reason: string, record: boolean): Promise<void> {
    const text = `Agent update to ${build.version} failed: ${reason}`;
    this.o.log(text);
    this.o.system?.(text, true);
    this.o.notice(null, text.slice(0, 255));
    this.failed = { version: build.version, sha256: build.sha256, reason, at: Date.now() };
    if (record) {
      const state = await readLauncherState(this.o.stateFile);
      await writeLauncherState(this.o.stateFile, { ...state, failed: this.failed, failureReported: true });
    }
  }

  private async install(build: AgentBuild): Promise<void> {
    if (!this.o.underLauncher) {
      await this.fail(build, 'this agent does not run from a single-file build under its launcher (install it with the Add device command)', false);
      return;
    }
    this.o.log(`agent ${build.version} offered (running ${this.o.ownVersion}): downloading it`);
    this.o.notice(10, `Downloading agent ${build.version}`);
    let content: Buffer;
    try {
      const res = await (this.o.fetchImpl ?? fetch)(new URL(build.url, this.o.apiEndpoint), { headers: { authorization: `Bearer ${this.o.deviceApiKey}` } });
      if (res.status !== 200) throw new Error(`the download answered HTTP ${res.status}`);
      content = Buffer.from(await res.arrayBuffer());
      if (content.length > MAX_DOWNLOAD) throw new Error('the download is larger than 32 MB');
    } catch (err) {
      // A network failure is not the build's: tried again at the next target.
      this.o.log(`agent ${build.version}: download failed (${err instanceof Error ? err.message : String(err)}); trying again later`);
      this.o.notice(null, null);
      return;
    }
    const problem = verifyBuild(content, build);
    if (problem) {
      await this.fail(build, problem, true);
      return;
    }
    const path = join(dirname(this.o.stateFile), `flotilla-agent-${build.version}.mjs`);
    await writeFile(path, content, { mode: 0o755 });
    await chmod(path, 0o755);
    const state = await readLauncherState(this.o.stateFile);
    await writeLauncherState(this.o.stateFile, { ...state, staged: { version: build.version, path, sha256: build.sha256 } });
    this.o.log(`agent ${build.version} verified (sha256 ${build.sha256}) and staged at ${path}: restarting into it`);
    this.o.system?.(`Restarting into agent ${build.version}`);
    this.o.notice(50, `Restarting into agent ${build.version}`);
    this.o.restart();
  }
}
