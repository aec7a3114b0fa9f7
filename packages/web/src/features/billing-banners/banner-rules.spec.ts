import { FREE_DEVICE_ALLOWANCE } from '@flotilla/model';
import { describe, expect, it } from 'vitest';
import { billingBanners, dismiss, forgetClearedDismissals, isDismissed, type BillingFacts, type DismissalStore } from './banner-rules';

const NOW = new Date('2026-11-27T12:00:00Z');
const daysAgo = (n: number) => new Date(NOW.getTime() - n * 86_400_000).toISOString();
const base: BillingFacts = { pastDueSince: null, isFrozen: false, isFreePlan: true, includedDevices: FREE_DEVICE_ALLOWANCE, deviceCount: 0, balance: null, threshold: null };
const ids = (facts: Partial<BillingFacts>) => billingBanners({ ...base, ...facts }, NOW).map((b) => b.id);

function memoryStore(): DismissalStore & { keys: () => string[] } {
  const map = new Map<string, string>();
  return {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
    keys: () => [...map.keys()],
  };
}

describe('the past-due banners (spec 3 §4)', () => {
  it('none without a past-due invoice', () => {
    expect(ids({})).toEqual([]);
  });
  it('a warning under 30 days, an error with the countdown from 30 to 59, frozen from 60', () => {
    expect(ids({ pastDueSince: daysAgo(29) })).toEqual(['past-due-warning']);
    const error = billingBanners({ ...base, pastDueSince: daysAgo(40) }, NOW);
    expect(error).toMatchObject([{ id: 'past-due-error', tone: 'error', days: 40, daysUntilFrozen: 20 }]);
    expect(ids({ pastDueSince: daysAgo(59) })).toEqual(['past-due-error']);
    expect(ids({ pastDueSince: daysAgo(60) })).toEqual(['frozen']);
  });
  it('frozen whenever the organization is frozen; that banner cannot be dismissed', () => {
    const [frozen] = billingBanners({ ...base, isFrozen: true }, NOW);
    expect(frozen).toMatchObject({ id: 'frozen', dismissible: false });
  });
});

describe('the device banners (spec 3 §4, §8)', () => {
  it('free plan over the allowance: the frozen devices', () => {
    expect(ids({ deviceCount: FREE_DEVICE_ALLOWANCE })).toEqual([]);
    expect(billingBanners({ ...base, deviceCount: FREE_DEVICE_ALLOWANCE + 3 }, NOW)).toMatchObject([{ id: 'free-allowance', frozenDevices: 3 }]);
  });
  it('a paid plan with more devices than it includes', () => {
    expect(ids({ isFreePlan: false, includedDevices: 100, deviceCount: 100 })).toEqual([]);
    expect(ids({ isFreePlan: false, includedDevices: 100, deviceCount: 101 })).toEqual(['provisioned']);
  });
  it('credits below the threshold', () => {
    expect(ids({ balance: 10, threshold: 10 })).toEqual([]);
    expect(ids({ balance: 9, threshold: 10 })).toEqual(['credits-threshold']);
    expect(ids({ balance: 0, threshold: null })).toEqual([]);
  });
});

describe('dismissals (spec 3 §4)', () => {
  it('are remembered per organization and banner, a past-due one for its date only', () => {
    const store = memoryStore();
    const [warning] = billingBanners({ ...base, pastDueSince: daysAgo(10) }, NOW);
    dismiss(store, 1, warning!, NOW);
    expect(isDismissed(store, 1, warning!)).toBe(true);
    expect(isDismissed(store, 2, warning!)).toBe(false);
    const [later] = billingBanners({ ...base, pastDueSince: daysAgo(5) }, NOW);
    expect(isDismissed(store, 1, later!)).toBe(false);
  });
  it('the threshold and provisioned banners reset when their condition clears; others do not', () => {
    const store = memoryStore();
    const shown = billingBanners({ ...base, isFreePlan: false, includedDevices: 1, deviceCount: 2, balance: 1, threshold: 5, pastDueSince: daysAgo(3) }, NOW);
    for (const b of shown) dismiss(store, 7, b, NOW);
    expect(shown.map((b) => b.id)).toEqual(['past-due-warning', 'provisioned', 'credits-threshold']);
    forgetClearedDismissals(store, 7, shown);
    expect(shown.every((b) => isDismissed(store, 7, b))).toBe(true);
    const cleared = billingBanners({ ...base, isFreePlan: false, includedDevices: 1, deviceCount: 1, balance: 9, threshold: 5, pastDueSince: daysAgo(3) }, NOW);
    forgetClearedDismissals(store, 7, cleared);
    expect(shown.map((b) => isDismissed(store, 7, b))).toEqual([true, false, false]);
  });
});
