import { describe, expect, it } from 'vitest';
import { FREE_DEVICE_ALLOWANCE } from './catalogue.js';
import { DEVICE_FROZEN_MESSAGE, DEVICE_IS_FROZEN_SQL, deviceFrozenReason, frozenReasonOf } from './frozen-devices.js';

describe('frozen devices (spec 3 §4, issue 18)', () => {
  it('freezes every device of a frozen organization, whatever the plan', () => {
    expect(deviceFrozenReason({ organizationFrozen: true, planCode: 'pilot-v2', olderDevices: 0 })).toBe('organization');
    expect(deviceFrozenReason({ organizationFrozen: true, planCode: null, olderDevices: 0 })).toBe('organization');
  });
  it('on the free plan, freezes the devices beyond the allowance, oldest first', () => {
    expect(deviceFrozenReason({ organizationFrozen: false, planCode: 'free', olderDevices: FREE_DEVICE_ALLOWANCE - 1 })).toBeNull();
    expect(deviceFrozenReason({ organizationFrozen: false, planCode: 'free', olderDevices: FREE_DEVICE_ALLOWANCE })).toBe('free-allowance');
    expect(deviceFrozenReason({ organizationFrozen: false, planCode: 'free-v2', olderDevices: 50 })).toBe('free-allowance');
  });
  it('freezes nothing beyond a paid plan’s devices (they are billed) nor without a plan (billing off)', () => {
    expect(deviceFrozenReason({ organizationFrozen: false, planCode: 'prototype-v2', olderDevices: 500 })).toBeNull();
    expect(deviceFrozenReason({ organizationFrozen: false, planCode: null, olderDevices: 500 })).toBeNull();
  });
  it('states the same rule in SQL over the row', () => {
    expect(DEVICE_IS_FROZEN_SQL).toContain(`>= ${FREE_DEVICE_ALLOWANCE}`);
    expect(DEVICE_IS_FROZEN_SQL).toContain("= 'free'");
    expect(DEVICE_IS_FROZEN_SQL).toContain('{row}."belongs_to__application"');
  });
});

describe('frozenReasonOf (the dashboard reads device.is_frozen and its organization)', () => {
  it('names the reason of a frozen device only', () => {
    expect(frozenReasonOf({ is_frozen: false }, true)).toBeNull();
    expect(frozenReasonOf({ is_frozen: null }, false)).toBeNull();
    expect(frozenReasonOf({ is_frozen: true }, true)).toBe('organization');
    expect(frozenReasonOf({ is_frozen: true }, false)).toBe('free-allowance');
    expect(DEVICE_FROZEN_MESSAGE).toContain(`free plan includes ${FREE_DEVICE_ALLOWANCE} devices`);
  });
});
