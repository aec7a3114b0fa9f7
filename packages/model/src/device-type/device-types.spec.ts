import { describe, expect, it } from 'vitest';
import { DEVICE_TYPES, deviceTypeContract, deviceTypeOptionState, isArchitectureCompatibleWith } from './device-types.js';

describe('isArchitectureCompatibleWith (device architecture, fleet architecture)', () => {
  it("follows balena's rule: a device runs its own architecture and the older ARM ones below it", () => {
    expect(isArchitectureCompatibleWith('aarch64', 'aarch64')).toBe(true);
    expect(isArchitectureCompatibleWith('aarch64', 'armv7hf')).toBe(true);
    expect(isArchitectureCompatibleWith('aarch64', 'rpi')).toBe(true);
    expect(isArchitectureCompatibleWith('armv7hf', 'rpi')).toBe(true);
    expect(isArchitectureCompatibleWith('amd64', 'amd64')).toBe(true);
  });
  it('refuses the other way round and across families', () => {
    expect(isArchitectureCompatibleWith('armv7hf', 'aarch64')).toBe(false);
    expect(isArchitectureCompatibleWith('rpi', 'armv7hf')).toBe(false);
    expect(isArchitectureCompatibleWith('amd64', 'aarch64')).toBe(false);
    expect(isArchitectureCompatibleWith('i386', 'amd64')).toBe(false);
    expect(isArchitectureCompatibleWith('constructor', 'rpi')).toBe(false);
  });
});

describe('the seeded catalogue', () => {
  const bySlug = new Map(DEVICE_TYPES.map((dt) => [dt.slug, dt]));

  it('offers every board for a multi-container fleet: none of balena’s boards is single-container', () => {
    for (const dt of DEVICE_TYPES) {
      if (dt.state) continue;
      expect([dt.slug, deviceTypeOptionState(deviceTypeContract(dt), { plan: undefined, needsMulticontainer: true })]).toEqual([dt.slug, 'ok']);
    }
    expect(deviceTypeOptionState({ data: { multicontainer: false } }, { plan: undefined, needsMulticontainer: true })).toBe('needsMulticontainerSupport');
  });

  it('has raspberry-pi2 as its own armv7hf type, not an alias of the Pi 3, and radxa-zero', () => {
    expect(bySlug.get('raspberry-pi2')).toMatchObject({ name: 'Raspberry Pi 2', arch: 'armv7hf' });
    expect(bySlug.get('radxa-zero')).toMatchObject({ name: 'Radxa Zero', arch: 'aarch64' });
    const aliases = DEVICE_TYPES.flatMap((dt) => [dt.slug, ...(dt.aliases ?? [])]);
    expect(new Set(aliases).size).toBe(aliases.length);
  });

  it('gives every contract what balena-sdk needs to tell the install method and instructions', () => {
    for (const dt of DEVICE_TYPES) {
      const contract = deviceTypeContract(dt) as { data: { media: { defaultBoot?: string }; flashProtocol?: string }; partials: Record<string, string[]> };
      expect([dt.slug, Boolean(contract.data.flashProtocol ?? contract.data.media.defaultBoot)]).toEqual([dt.slug, true]);
      expect([dt.slug, Object.keys(contract.partials).length > 0]).toEqual([dt.slug, true]);
    }
  });
});
