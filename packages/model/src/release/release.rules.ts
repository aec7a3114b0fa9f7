import type { ReleaseStatus } from './release.resource.js';

/**
 * Pure release rules shared by the server (which decides) and the dashboard (which shows
 * the same thing): the running-release timeout, which statuses block validation, semver
 * parsing and the raw_version the server derives.
 */

/** Spec 2 §4, §9: a running release with no update for longer than this is shown as timeout. */
export const RUNNING_RELEASE_TIMEOUT_MINUTES = 120;

/** Spec 2 §4: a release with one of these statuses cannot be made valid again. */
export const RELEASE_STATUSES_BLOCKING_VALIDATION: readonly ReleaseStatus[] = ['failed', 'error', 'interrupted', 'cancelled', 'timeout'];

type Instant = Date | string | number;
const msOf = (t: Instant): number => (t instanceof Date ? t.getTime() : new Date(t).getTime());

/**
 * The status to show: `timeout` for a `running` release whose `update_timestamp` is more
 * than RUNNING_RELEASE_TIMEOUT_MINUTES before `now`; otherwise the stored status. The
 * server never rewrites the stored status.
 */
export function releaseDisplayStatus(status: ReleaseStatus, updateTimestamp: Instant | null | undefined, now: Instant): ReleaseStatus {
  if (status !== 'running' || updateTimestamp == null) return status;
  const idleMs = msOf(now) - msOf(updateTimestamp);
  return idleMs > RUNNING_RELEASE_TIMEOUT_MINUTES * 60_000 ? 'timeout' : status;
}

export const SEMVER_THREE_PART_MESSAGE = 'Only three-part semver versions (MAJOR.MINOR.PATCH) are supported';

export interface SemverParts {
  major: number;
  minor: number;
  patch: number;
}

const THREE_PART = /^(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})$/;

/** `MAJOR.MINOR.PATCH` (no leading zeros, no pre-release or build part), else undefined. */
export function parseReleaseSemver(semver: string): SemverParts | undefined {
  const m = THREE_PART.exec(semver);
  if (!m) return undefined;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) };
}

/**
 * The raw_version of a release:
 * - a final release: `<semver>` for the first final release of its fleet with that semver
 *   (revision 0), `<semver>+rev<N>` for the N-th after it;
 * - a draft (not final): `<semver>-<created_at in ms>`, unique per fleet in practice and
 *   sorting below the final version as a semver pre-release does.
 */
export function releaseRawVersion(r: { semver: string; is_final: boolean; revision: number | null; created_at: Instant }): string {
  if (!r.is_final) return `${r.semver}-${msOf(r.created_at)}`;
  return r.revision ? `${r.semver}+rev${r.revision}` : r.semver;
}
