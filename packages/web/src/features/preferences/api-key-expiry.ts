import { API_KEY_EXPIRY_PRESET_DAYS } from '@flotilla/model';
import { fromDateTimeLocal } from '../../lib/datetime-local';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Spec 1 §5: 1, 7, 30 or 90 days, a custom date, never; editing may also keep the current expiry. */
export type ExpiryChoice = `${(typeof API_KEY_EXPIRY_PRESET_DAYS)[number]}` | 'custom' | 'never' | 'keep';

/**
 * The expiry date a choice means: an ISO string, null for never, `undefined` to keep the
 * current one, or an error key when a custom date is missing or not in the future.
 */
export function apiKeyExpiry(
  choice: ExpiryChoice,
  custom: string,
  now: Date,
): { expiryDate: string | null | undefined } | { error: 'custom_required' | 'custom_in_past' } {
  if (choice === 'keep') return { expiryDate: undefined };
  if (choice === 'never') return { expiryDate: null };
  if (choice === 'custom') {
    const date = fromDateTimeLocal(custom);
    if (!date) return { error: 'custom_required' };
    if (date.getTime() <= now.getTime()) return { error: 'custom_in_past' };
    return { expiryDate: date.toISOString() };
  }
  return { expiryDate: new Date(now.getTime() + Number(choice) * DAY_MS).toISOString() };
}
