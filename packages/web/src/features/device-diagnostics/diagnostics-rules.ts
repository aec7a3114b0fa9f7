/**
 * Pure rules of the diagnostics page (spec 2 §2 diagnostics page, §4 diagnostics run and
 * health-check states, §5 health checks, §8 errors, §9 polling and the download name).
 * No React, no I/O: unit-tested beside this file.
 */

import {
  ACTION_POLL_MS,
  ACTION_RUN_STATES,
  HEALTH_CHECKS_MIN_OS,
  type ActionRun,
  type ActionRunState,
  type HealthCheck,
  type HealthCheckOutput,
} from '@flotilla/model';

/** The numeric parts of a version string (`balenaOS 2.10.3+rev1`, `v14.0.0`, `2.11`), or undefined. */
export function versionParts(version: string | null | undefined): [number, number, number] | undefined {
  const m = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(version ?? '');
  if (!m) return undefined;
  return [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
}

/** -1, 0 or 1 as `a` is below, equal to or above `b` (major.minor.patch). */
export function compareVersions(a: [number, number, number], b: [number, number, number]): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return 0;
}

/**
 * Spec 2 §5: the health-checks tab warns when the host OS is below 2.11.0. An unknown OS
 * version (a device that never reported one) is not warned about: nothing says it is old.
 */
export function osBelowHealthChecksMin(osVersion: string | null | undefined): boolean {
  const parts = versionParts(osVersion);
  const min = versionParts(HEALTH_CHECKS_MIN_OS)!;
  return parts !== undefined && compareVersions(parts, min) < 0;
}

const isState = (v: unknown): v is ActionRunState => typeof v === 'string' && (ACTION_RUN_STATES as readonly string[]).includes(v);

/**
 * A run as the actions service answered it, checked: anything that is not an ActionRun
 * (a proxy's HTML page, a newer server's shape) is refused so the page says the query
 * failed instead of drawing nonsense.
 */
export function parseActionRun(body: unknown): ActionRun | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  if (!isState(b.status)) return undefined;
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return { status: b.status, stdout: b.stdout ?? null, error: text(b.error), lastRun: text(b.lastRun) };
}

/** A checks run's stdout (HealthCheckOutput), or undefined when it holds none. Malformed rows are dropped. */
export function healthCheckOutput(stdout: unknown): HealthCheckOutput | undefined {
  if (typeof stdout === 'string') {
    try {
      return healthCheckOutput(JSON.parse(stdout));
    } catch {
      return undefined;
    }
  }
  if (typeof stdout !== 'object' || stdout === null || !Array.isArray((stdout as { checks?: unknown }).checks)) return undefined;
  const checks = ((stdout as { checks: unknown[] }).checks).filter(
    (c): c is HealthCheck =>
      typeof c === 'object' && c !== null && typeof (c as HealthCheck).name === 'string' && typeof (c as HealthCheck).success === 'boolean',
  );
  const version = (stdout as { diagnose_version?: unknown }).diagnose_version;
  return {
    checks: checks.map((c) => ({ name: c.name, success: c.success, status: typeof c.status === 'string' ? c.status : '' })),
    diagnose_version: typeof version === 'string' ? version : '',
  };
}

/** A diagnose run's stdout as text (the agent sends text; anything else is shown as JSON). */
export function diagnoseStdout(stdout: unknown): string {
  if (stdout === null || stdout === undefined) return '';
  return typeof stdout === 'string' ? stdout : JSON.stringify(stdout, null, 2);
}

/**
 * Spec 2 §9 polling: health checks every 15 s; diagnostics every 5 s while a run is in
 * progress (a finished run does not change until someone starts another, and a POST refetches).
 */
export function pollInterval(action: 'checks' | 'diagnose', run: ActionRun | undefined): number | false {
  if (action === 'checks') return ACTION_POLL_MS.checks;
  return run?.status === 'in_progress' || run?.status === 'configuring' ? ACTION_POLL_MS.diagnose : false;
}

/**
 * Spec 2 §9: the download is a lowercase-named text file with STDOUT and STDERR sections
 * (the run's stdout, then its stderr — `error` in the ActionRun).
 */
export function diagnosticsFileText(run: Pick<ActionRun, 'stdout' | 'error'>): string {
  return `STDOUT\n======\n${diagnoseStdout(run.stdout)}\n\nSTDERR\n======\n${run.error ?? ''}\n`;
}

/** What the supervisor-state tab shows for a failed current-state read (spec 2 §8). */
export type SupervisorStateProblem = { kind: 'offline' } | { kind: 'error'; body: string };

/** balena's answer without a link to the device (dialect §4.6), which the tab words as offline. */
export const NO_ONLINE_DEVICE = 'No online device(s) found';

/**
 * Spec 2 §8: a current-state failure other than 'No online device(s) found' shows
 * 'Supervisor Current State error: {body}'; that one (and an offline device) shows the
 * offline message instead.
 */
export function supervisorStateProblem(err: unknown, isOnline: boolean): SupervisorStateProblem {
  const body = errorBody(err);
  if (!isOnline || body.includes(NO_ONLINE_DEVICE)) return { kind: 'offline' };
  return { kind: 'error', body };
}

/** The server's text of a balena-sdk error: its body (a string or JSON), else its message. */
export function errorBody(err: unknown): string {
  if (typeof err !== 'object' || err === null) return String(err);
  const { body, message } = err as { body?: unknown; message?: unknown };
  if (typeof body === 'string' && body !== '') return body;
  if (typeof body === 'object' && body !== null) return JSON.stringify(body);
  return typeof message === 'string' ? message : '';
}

export const DIAGNOSTICS_TABS = ['health-checks', 'diagnostics', 'supervisor-state'] as const;
export type DiagnosticsTab = (typeof DIAGNOSTICS_TABS)[number];

/** `?tab=` names the tab so a link or a reload keeps it; anything else is the first. */
export function tabOf(value: string | null): DiagnosticsTab {
  return (DIAGNOSTICS_TABS as readonly string[]).includes(value ?? '') ? (value as DiagnosticsTab) : 'health-checks';
}
