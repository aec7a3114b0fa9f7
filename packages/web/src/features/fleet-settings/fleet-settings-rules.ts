import type { DeviceOverallStatus } from '@flotilla/model';

/** Pure rules of the fleet summary, settings and API keys pages (spec 2 §4, §5, §9). */

export type SupportAccessState = 'on' | 'expired' | 'off';

/** Spec 2 §4: support access is on, expired or off, by its expiry date. */
export function supportAccessState(until: string | null, now: Date): SupportAccessState {
  if (!until) return 'off';
  return new Date(until).getTime() > now.getTime() ? 'on' : 'expired';
}

/**
 * Spec 2 §5: renaming classic or legacy applications is blocked. As on the server, those
 * are the applications whose application type is marked `is_legacy`.
 */
export function isClassicOrLegacy(type: { is_legacy: boolean } | null): boolean {
  return !!type?.is_legacy;
}

/** The first 7 characters of a commit, as release lists show it. */
export const shortCommit = (commit: string) => commit.slice(0, 7);

export interface FleetDeviceCounts {
  total: number;
  byStatus: Record<DeviceOverallStatus, number>;
}


