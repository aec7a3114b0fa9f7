import { FREE_DEVICE_ALLOWANCE, pastDueStage } from '@flotilla/model';

/** Spec 3 §4 and §8 banners about an organization's billing. */
export type BillingBannerId = 'past-due-warning' | 'past-due-error' | 'frozen' | 'free-allowance' | 'provisioned' | 'credits-threshold';

export interface BillingBanner {
  id: BillingBannerId;
  tone: 'warning' | 'error';
  /** What a dismissal is remembered for: a past-due banner for that past-due date only. */
  dismissKey: string;
  /** Frozen is not dismissible: the organization's pages are closed until it is paid. */
  dismissible: boolean;
  days?: number;
  daysUntilFrozen?: number;
  deviceCount?: number;
  included?: number;
  frozenDevices?: number;
  balance?: number;
  threshold?: number;
}

export interface BillingFacts {
  pastDueSince: string | null;
  isFrozen: boolean;
  isFreePlan: boolean;
  includedDevices: number;
  deviceCount: number;
  /** Known only to users with billing access (null otherwise or without a notification). */
  balance: number | null;
  threshold: number | null;
}

/** The banners that apply now, most severe first. */
export function billingBanners(facts: BillingFacts, now: Date): BillingBanner[] {
  const banners: BillingBanner[] = [];
  const pastDue = pastDueStage(facts.pastDueSince, now);
  const since = facts.pastDueSince ?? '';
  if (facts.isFrozen || pastDue.stage === 'frozen') {
    banners.push({ id: 'frozen', tone: 'error', dismissKey: 'frozen', dismissible: false, days: pastDue.days });
  } else if (pastDue.stage === 'error') {
    banners.push({ id: 'past-due-error', tone: 'error', dismissKey: `past-due-error:${since}`, dismissible: true, days: pastDue.days, daysUntilFrozen: pastDue.daysUntilFrozen });
  } else if (pastDue.stage === 'warning') {
    banners.push({ id: 'past-due-warning', tone: 'warning', dismissKey: `past-due-warning:${since}`, dismissible: true, days: pastDue.days });
  }
  if (facts.isFreePlan && facts.deviceCount > FREE_DEVICE_ALLOWANCE) {
    banners.push({
      id: 'free-allowance',
      tone: 'error',
      dismissKey: 'free-allowance',
      dismissible: true,
      deviceCount: facts.deviceCount,
      included: FREE_DEVICE_ALLOWANCE,
      frozenDevices: facts.deviceCount - FREE_DEVICE_ALLOWANCE,
    });
  } else if (!facts.isFreePlan && facts.deviceCount > facts.includedDevices) {
    banners.push({ id: 'provisioned', tone: 'warning', dismissKey: 'provisioned', dismissible: true, deviceCount: facts.deviceCount, included: facts.includedDevices });
  }
  if (facts.balance !== null && facts.threshold !== null && facts.balance < facts.threshold) {
    banners.push({ id: 'credits-threshold', tone: 'warning', dismissKey: 'credits-threshold', dismissible: true, balance: facts.balance, threshold: facts.threshold });
  }
  return banners;
}

/** Banners whose dismissal is forgotten once their condition clears (spec 3 §4). */
export const RESET_WHEN_CLEARED: readonly BillingBannerId[] = ['provisioned', 'credits-threshold'];

/** Where a dismissal is remembered (per organization and banner). */
export const dismissalStorageKey = (organizationId: number, dismissKey: string) => `flotilla.billingBanner.${organizationId}.${dismissKey}`;

/** Storage as the banners use it (localStorage in the browser). */
export interface DismissalStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Forgets the dismissals of reset-when-cleared banners that no longer apply. */
export function forgetClearedDismissals(store: DismissalStore, organizationId: number, current: readonly BillingBanner[]): void {
  for (const id of RESET_WHEN_CLEARED) {
    if (!current.some((b) => b.id === id)) store.removeItem(dismissalStorageKey(organizationId, id));
  }
}

export function isDismissed(store: DismissalStore, organizationId: number, banner: BillingBanner): boolean {
  return banner.dismissible && store.getItem(dismissalStorageKey(organizationId, banner.dismissKey)) !== null;
}

export function dismiss(store: DismissalStore, organizationId: number, banner: BillingBanner, now: Date): void {
  store.setItem(dismissalStorageKey(organizationId, banner.dismissKey), now.toISOString());
}
