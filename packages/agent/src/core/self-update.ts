import { createHash } from 'node:crypto';
import { agentBuildVersion } from '@flotilla/model';
import type { AgentBuild } from './target-state.js';

/**
 * The agent's self-update (issue 17 item 4), its decisions as pure functions: whether a
 * target's agent build is to be installed, whether a downloaded build is the one offered, and
 * what the launcher does when a build it started exits or proves healthy. The host side
 * (download, staging, the launcher process) is in host/self-update.ts and host/launcher.ts.
 */

/** A build that failed (checksum, start, probation): not tried again while the target names it. */
export interface FailedBuild {
  version: string;
  sha256: string;
  reason: string;
  /** When it failed (ms since the epoch). */
  at: number;
}

/** Compares plain `x.y.z` versions (missing or non-numeric parts count as 0). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((n) => Number.parseInt(n, 10) || 0);
  const pb = b.split('.').map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

export type SelfUpdateDecision =
  | { kind: 'none' }
  | { kind: 'install'; build: AgentBuild }
  /** The target names the build that failed last time: nothing is tried (a new release or build is). */
  | { kind: 'failed-before'; build: AgentBuild; failed: FailedBuild };

/** What to do with the target's agent build, for an agent of version `own` (only newer builds are installed: no downgrades). */
export function decideSelfUpdate(own: string, build: AgentBuild | null | undefined, failed: FailedBuild | null): SelfUpdateDecision {
  if (!build || compareVersions(build.version, own) <= 0) return { kind: 'none' };
  if (failed && failed.version === build.version && failed.sha256 === build.sha256) return { kind: 'failed-before', build, failed };
  return { kind: 'install', build };
}

/** Why a downloaded build must not be installed, or null when it is the build offered. */
export function verifyBuild(content: Buffer, build: AgentBuild): string | null {
  const sha = createHash('sha256').update(content).digest('hex');
  if (sha !== build.sha256) return `checksum mismatch (expected sha256 ${build.sha256}, got ${sha})`;
  const declared = agentBuildVersion(content.subarray(0, 512).toString('utf8'));
  if (declared === undefined) return 'the download is not a Flotilla agent build';
  if (declared !== build.version) return `the build is version ${declared}, not ${build.version}`;
  return null;
}

/** The launcher's state file (`<config>.agent.json`): the build it runs, the one on probation, the last failure. */
export interface LauncherState {
  /** The build the launcher starts (null: the launcher's own file). */
  current: { version: string; path: string } | null;
  /** A verified build waiting to start on probation. */
  staged: { version: string; path: string; sha256: string } | null;
  /** The last build that failed, reported by the build that runs after it. */
  failed: FailedBuild | null;
  /** Set when `failed` has been reported (the next starts do not report it again). */
  failureReported?: boolean;
}

export const EMPTY_LAUNCHER_STATE: LauncherState = { current: null, staged: null, failed: null };

/** How a child of the launcher ended. */
export type ChildEnd = { kind: 'exit'; code: number | null; signal: string | null } | { kind: 'probation-timeout' };

/** The staged build on probation came up healthy: it becomes the current build (it keeps running). */
export function promoteStaged(state: LauncherState): LauncherState {
  if (!state.staged) return state;
  return { ...state, current: { version: state.staged.version, path: state.staged.path }, staged: null };
}

/** The exit code with which a build asks its launcher to start the staged build (EX_TEMPFAIL). */
export const RESTART_INTO_STAGED = 75;

export type LauncherStep =
  /** Start (again) the build `state.current` names (or the launcher's own). */
  | { kind: 'run'; state: LauncherState; probation: false }
  /** Start the staged build on probation. */
  | { kind: 'run'; state: LauncherState; probation: true }
  /** The launcher exits with this code (the child stopped on its own: a signal, shutdown, a fatal error). */
  | { kind: 'exit'; code: number; state: LauncherState };

/**
 * The launcher's next step after its child ended (`probation`: the child was a staged build
 * not yet healthy). A build on probation that exits or is not healthy in time is recorded as
 * failed and the previous build starts again; a build that exits with RESTART_INTO_STAGED
 * (having staged a new one) makes way for it; any other exit ends the launcher with its code.
 */
export function launcherNext(state: LauncherState, probation: boolean, end: ChildEnd, now: number): LauncherStep {
  if (probation && state.staged) {
    const staged = state.staged;
    const reason =
      end.kind === 'probation-timeout'
        ? 'it did not come up healthy within the probation window'
        : `it exited during its start (${end.signal ? `signal ${end.signal}` : `code ${end.code}`})`;
    return {
      kind: 'run',
      probation: false,
      state: { ...state, staged: null, failed: { version: staged.version, sha256: staged.sha256, reason, at: now }, failureReported: false },
    };
  }
  if (end.kind === 'exit' && end.code === RESTART_INTO_STAGED && state.staged) return { kind: 'run', probation: true, state };
  if (end.kind === 'exit') return { kind: 'exit', code: end.code ?? (end.signal ? 0 : 1), state };
  return { kind: 'run', probation: false, state };
}
