import { releaseDisplayStatus, RELEASE_STATUSES_BLOCKING_VALIDATION, type ReleaseStatus } from '@flotilla/model';

/** Pure presentation rules of the release pages (spec 2 §2, §4). */

export function shortCommit(commit: string): string {
  return commit.slice(0, 7);
}

/** The shown status: running with no update for over 120 minutes is timeout (spec 2 §4). */
export function shownStatus(release: { status: string; update_timestamp: string }, now: number): ReleaseStatus {
  return releaseDisplayStatus(release.status as ReleaseStatus, release.update_timestamp, now);
}

export type StatusColour = 'success' | 'info' | 'error' | 'warning' | 'default';

export function statusColour(status: ReleaseStatus): StatusColour {
  switch (status) {
    case 'success':
      return 'success';
    case 'running':
      return 'info';
    case 'failed':
    case 'error':
      return 'error';
    case 'local':
      return 'default';
    default:
      return 'warning';
  }
}

/** Spec 2 §4: failed, error, interrupted, cancelled and timeout block validation. */
export function blocksValidation(status: ReleaseStatus): boolean {
  return RELEASE_STATUSES_BLOCKING_VALIDATION.includes(status);
}

/** Spec 2 §4: running, cancelled and local releases show no image success or error icon. */
export function showsImageStatusIcons(status: ReleaseStatus): boolean {
  return status !== 'running' && status !== 'cancelled' && status !== 'local';
}

/** What the "Completed" field says (spec 2 §2: 'Build failed', 'build cancelled'). */
export type Completion = { kind: 'at'; at: string } | { kind: 'failed' } | { kind: 'cancelled' } | { kind: 'pending' };

export function completion(status: ReleaseStatus, endTimestamp: string | null): Completion {
  if (status === 'failed' || status === 'error') return { kind: 'failed' };
  if (status === 'cancelled') return { kind: 'cancelled' };
  return endTimestamp ? { kind: 'at', at: endTimestamp } : { kind: 'pending' };
}

/** The composition as pretty JSON, or undefined when it is not an object ('Could not parse composition data'). */
export function prettyComposition(composition: unknown): string | undefined {
  let value = composition;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return JSON.stringify(value, null, 2);
}

/** Start to end as `1h 2m 3s` (units that are zero at the front are left out); undefined without both ends. */
export function buildDuration(start: string | null, end: string | null): string | undefined {
  if (!start || !end) return undefined;
  const ms = new Date(end).getTime() - new Date(start).getTime();
  if (!Number.isFinite(ms) || ms < 0) return undefined;
  const total = Math.round(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h}h ${m}m ${s}s`;
  if (m > 0) return `${m}m ${s}s`;
  return `${s}s`;
}

/** An image size in bytes as B, KB, MB or GB (powers of 1024, one decimal). */
export function formatBytes(bytes: number | string | null): string | undefined {
  if (bytes === null) return undefined;
  let n = Number(bytes);
  if (!Number.isFinite(n) || n < 0) return undefined;
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let unit = 0;
  while (n >= 1024 && unit < units.length - 1) {
    n /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${n} B` : `${n.toFixed(1)} ${units[unit]}`;
}
