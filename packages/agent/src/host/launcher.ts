import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { EMPTY_LAUNCHER_STATE, launcherNext, promoteStaged, type ChildEnd, type LauncherState } from '../core/self-update.js';

/**
 * The agent's launcher (issue 17 item 4): `flotilla-agent run` from a single-file build starts
 * as this small loop, which runs the current build as a child process (`node <build> run …`
 * with FLOTILLA_AGENT_CHILD=1) and swaps builds: a child that staged a newer build exits with
 * RESTART_INTO_STAGED; the launcher starts the staged build on probation and makes it current
 * once it reports healthy (an IPC message after its first accepted state report), or records
 * the failure and starts the previous build again when it exits or is not healthy within the
 * probation window. Signals (SIGTERM from systemd, SIGINT) go to the child; the launcher exits
 * with the child's code. Containers belong to the engine: no restart touches them.
 */

/** The state file beside config.json. */
export const launcherStateFile = (configPath: string): string => `${configPath}.agent.json`;

export async function readLauncherState(file: string): Promise<LauncherState> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<LauncherState>;
    return { ...EMPTY_LAUNCHER_STATE, ...parsed };
  } catch {
    return { ...EMPTY_LAUNCHER_STATE };
  }
}

export async function writeLauncherState(file: string, state: LauncherState): Promise<void> {
  await writeFile(`${file}.part`, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  await rename(`${file}.part`, file);
}

export interface LauncherOptions {
  /** The launcher's own build (used while no other build is current). */
  self: string;
  /** The arguments after the build's path (`run --config …`). */
  args: string[];
  stateFile: string;
  /** How long a new build has to report healthy (default 120 s). */
  probationMs?: number;
  env?: NodeJS.ProcessEnv;
  log(message: string): void;
}

/** Runs builds until one exits on its own; resolves with the exit code. */
export async function runLauncher(o: LauncherOptions): Promise<number> {
  const probationMs = o.probationMs ?? 120_000;
  let child: ChildProcess | null = null;
  let stopping = false;
  const forward = (signal: NodeJS.Signals) => () => {
    stopping = true;
    child?.kill(signal);
  };
  const onTerm = forward('SIGTERM');
  const onInt = forward('SIGINT');
  process.on('SIGTERM', onTerm);
  process.on('SIGINT', onInt);
  try {
    let state = await readLauncherState(o.stateFile);
    let probation = false;
    let pendingWrite: Promise<void> = Promise.resolve();
    // A build staged before a crash or power loss is started on probation.
    if (state.staged && existsSync(state.staged.path)) probation = true;
    for (;;) {
      const build = probation && state.staged ? state.staged.path : state.current && existsSync(state.current.path) ? state.current.path : o.self;
      o.log(`launcher: starting ${build}${probation ? ' on probation' : ''}`);
      const proc = spawn(process.execPath, [build, ...o.args], {
        stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
        env: { ...(o.env ?? process.env), FLOTILLA_AGENT_CHILD: '1', FLOTILLA_AGENT_BUILD: build, ...(probation ? { FLOTILLA_AGENT_PROBATION: '1' } : {}) },
      });
      child = proc;
      const end = await new Promise<ChildEnd>((resolve) => {
        let timer: NodeJS.Timeout | null = null;
        let timedOut = false;
        if (probation) {
          timer = setTimeout(() => {
            o.log('launcher: the new build is not healthy within the probation window: stopping it');
            timedOut = true;
            proc.kill('SIGTERM');
            setTimeout(() => proc.kill('SIGKILL'), 10_000).unref();
          }, probationMs);
        }
        proc.on('message', (message: unknown) => {
          if (!probation || (message as { type?: unknown })?.type !== 'healthy') return;
          if (timer) clearTimeout(timer);
          timer = null;
          probation = false;
          const previous = state.current;
          state = promoteStaged(state);
          o.log(`launcher: build ${state.current?.version} is healthy: it is the current build`);
          pendingWrite = writeLauncherState(o.stateFile, state).then(async () => {
            // The build it replaced is not needed any more (the launcher's own file stays).
            if (previous && previous.path !== o.self && previous.path !== state.current?.path) await rm(previous.path, { force: true });
          });
        });
        proc.once('exit', (code, signal) => {
          if (timer) clearTimeout(timer);
          resolve(timedOut ? { kind: 'probation-timeout' } : { kind: 'exit', code, signal });
        });
      });
      child = null;
      const wasProbation = probation;
      probation = false;
      if (stopping) return end.kind === 'exit' ? (end.code ?? 0) : 0;
      // The file is the truth: a child that staged a build wrote it there.
      await pendingWrite.catch(() => undefined);
      state = await readLauncherState(o.stateFile);
      const next = launcherNext(state, wasProbation, end, Date.now());
      if (wasProbation && next.state.failed && next.state.failed !== state.failed) {
        o.log(`launcher: build ${next.state.failed.version} failed (${next.state.failed.reason}): back to the previous build`);
        if (state.staged) await rm(state.staged.path, { force: true });
      }
      state = next.state;
      await writeLauncherState(o.stateFile, state);
      if (next.kind === 'exit') return next.code;
      probation = next.probation;
    }
  } finally {
    process.off('SIGTERM', onTerm);
    process.off('SIGINT', onInt);
  }
}
