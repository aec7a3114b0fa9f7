/**
 * Spec 1 §9 team seat prices per member per month: observer unlimited (read as $0),
 * operator $29, developer $49, administrator $49. Organization roles are administrator and
 * member; our reading: an administrator takes an administrator seat ($49) and a member —
 * read-only until given explicit fleet access — an observer seat, "unlimited", i.e. free.
 * The server has no pricing lookup yet, so the table lives here.
 */
const SEAT_PRICE_USD: Record<string, number> = {
  observer: 0,
  member: 0,
  operator: 29,
  developer: 49,
  administrator: 49,
};

export function seatPrice(role: string): number {
  return SEAT_PRICE_USD[role] ?? 0;
}

/** '+$X.XX /mo' (spec 1 §9). */
export function formatSeatPrice(role: string): string {
  return `+$${seatPrice(role).toFixed(2)} /mo`;
}

/** Organization roles offered by the invite and role-change dialogs. */
export const ORGANIZATION_ROLES = ['member', 'administrator'] as const;
