import type { DeviceOverallStatus } from '@flotilla/model';
import { fromDateTimeLocal } from '../../lib/datetime-local';

/** Pure rules of the fleet summary, settings and API keys pages (spec 2 §4, §5, §9). */

const DAY_MS = 24 * 60 * 60 * 1000;

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

/** API key expiry choices: preset days, a custom date, or never. */
export const KEY_EXPIRY_PRESET_DAYS = [1, 7, 30, 90] as const;
export type KeyExpiryChoice = `${(typeof KEY_EXPIRY_PRESET_DAYS)[number]}` | 'custom' | 'never';

/**
 * The expiry date a choice means: an ISO string, null for never, or an error key when a
 * custom date is missing or not in the future.
 */
export function keyExpiryDate(choice: KeyExpiryChoice, custom: string, now: Date): { expiryDate: string | null } | { error: 'custom_required' | 'custom_in_past' } {
  if (choice === 'never') return { expiryDate: null };
  if (choice === 'custom') {
    const date = fromDateTimeLocal(custom);
    if (!date) return { error: 'custom_required' };
    if (date.getTime() <= now.getTime()) return { error: 'custom_in_past' };
    return { expiryDate: date.toISOString() };
  }
  return { expiryDate: new Date(now.getTime() + Number(choice) * DAY_MS).toISOString() };
}

/** The first 7 characters of a commit, as release lists show it. */
export const shortCommit = (commit: string) => commit.slice(0, 7);

export interface FleetDeviceCounts {
  total: number;
  byStatus: Record<DeviceOverallStatus, number>;
}


