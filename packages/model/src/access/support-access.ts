/** Spec 2 §5, §9 and spec 3 §5: a support-access grant's picker defaults this far ahead. */
export const SUPPORT_ACCESS_DEFAULT_DAYS = 5;

/** The default expiry of a new support-access grant (fleets and devices): 5 days from `now`. */
export function supportAccessDefault(now: Date): Date {
  return new Date(now.getTime() + SUPPORT_ACCESS_DEFAULT_DAYS * 24 * 60 * 60 * 1000);
}
