import { API_KEY_EXPIRY_PRESET_DAYS } from '@flotilla/model';
import { fromDateTimeLocal } from './datetime-local';
import { optionalText, requiredText } from './form-rules';
import { z } from 'zod/mini';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Spec 1 §5 and spec 2 §9: the preset days a key may expire after (user and provisioning keys alike). */
export const KEY_EXPIRY_PRESET_DAYS = API_KEY_EXPIRY_PRESET_DAYS;

/** 1, 7, 30 or 90 days, a custom date, never; editing a user key may also keep the current expiry. */
export type KeyExpiryChoice = `${(typeof KEY_EXPIRY_PRESET_DAYS)[number]}` | 'custom' | 'never' | 'keep';

export type KeyExpiryError = 'custom_required' | 'custom_in_past';

/**
 * The expiry date a choice means: an ISO string, null for never, `undefined` to keep the
 * current one, or an error key when a custom date is missing or not in the future.
 */
export function keyExpiry(choice: KeyExpiryChoice, custom: string, now: Date): { expiryDate: string | null | undefined } | { error: KeyExpiryError } {
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

/** The expiry field's value: the choice and the custom date typed (a datetime-local value). */
export interface KeyExpiryValue {
  choice: KeyExpiryChoice;
  custom: string;
}

/** A new key's expiry: 30 days. */
export const DEFAULT_KEY_EXPIRY: KeyExpiryValue = { choice: '30', custom: '' };

/** The expiry field's rule for a form: its output is the expiry date (`keyExpiry`), its errors the given texts. */
export function keyExpirySchema(message: (error: KeyExpiryError) => string) {
  const value = z.object({ choice: z.custom<KeyExpiryChoice>((v) => typeof v === 'string'), custom: z.string() });
  return z.pipe(
    value.check(
      z.superRefine((v, ctx) => {
        const expiry = keyExpiry(v.choice, v.custom, new Date());
        if ('error' in expiry) ctx.addIssue({ code: 'custom', message: message(expiry.error), input: v });
      }),
    ),
    z.transform((v) => {
      const expiry = keyExpiry(v.choice, v.custom, new Date());
      return 'error' in expiry ? undefined : expiry.expiryDate;
    }),
  );
}

/** A new or edited key (user API keys, provisioning keys): name required, description optional, expiry. */
export function keyFormSchema(nameRequired: string, expiryMessage: (error: KeyExpiryError) => string) {
  return z.object({ name: requiredText(nameRequired), description: optionalText(), expiry: keyExpirySchema(expiryMessage) });
}
