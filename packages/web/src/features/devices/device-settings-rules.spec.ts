import { describe, expect, it } from 'vitest';
import { deactivateUnavailable, localModeUnavailable, moveCandidates, movePersistentStorageWarning } from './device-settings-rules';

describe('localModeUnavailable', () => {
  const seen = '2026-01-01T00:00:00Z';
  it('allows a connected dev OS with supervisor 4 or newer', () => {
    expect(localModeUnavailable({ os_variant: 'dev', supervisor_version: '4.0.0', last_connectivity_event: seen })).toBeUndefined();
    expect(localModeUnavailable({ os_variant: 'dev', supervisor_version: '16.1.0', last_connectivity_event: seen })).toBeUndefined();
  });
  it('refuses a prod OS, an older supervisor or an unknown one', () => {
    expect(localModeUnavailable({ os_variant: 'prod', supervisor_version: '16.1.0', last_connectivity_event: seen })).toBe('local_mode_unsupported');
    expect(localModeUnavailable({ os_variant: 'dev', supervisor_version: '3.9.9', last_connectivity_event: seen })).toBe('local_mode_unsupported');
    expect(localModeUnavailable({ os_variant: 'dev', supervisor_version: null, last_connectivity_event: seen })).toBe('local_mode_unsupported');
    expect(localModeUnavailable({ os_variant: null, supervisor_version: '16.1.0', last_connectivity_event: seen })).toBe('local_mode_unsupported');
  });
  it('waits for a device that has never connected', () => {
    expect(localModeUnavailable({ os_variant: 'dev', supervisor_version: '16.1.0', last_connectivity_event: null })).toBe('not_fully_provisioned');
  });
});

describe('deactivateUnavailable', () => {
  it('says an inactive device is already inactive', () => {
    expect(deactivateUnavailable({ is_active: false, is_online: false })).toBe('device_already_inactive');
  });
  it('needs a disconnected device', () => {
    expect(deactivateUnavailable({ is_active: true, is_online: true })).toBe('device_must_be_offline');
    expect(deactivateUnavailable({ is_active: true, is_online: false })).toBeUndefined();
  });
});

describe('moveCandidates', () => {
  const fleets = [
    { id: 1, app_name: 'home', architecture: 'aarch64' },
    { id: 2, app_name: 'zeta', architecture: 'aarch64' },
    { id: 3, app_name: 'intel', architecture: 'amd64' },
    { id: 4, app_name: 'alpha', architecture: 'aarch64' },
  ];
  it('offers other fleets of the same architecture by name, not its own', () => {
    expect(moveCandidates(fleets, { fleetId: 1, architecture: 'aarch64' }).map((f) => f.id)).toEqual([4, 2]);
  });
  it('offers nothing when no fleet has an architecture the device runs', () => {
    expect(moveCandidates(fleets, { fleetId: 1, architecture: 'armv7hf' })).toEqual([]);
  });
  it("offers fleets of the architectures the device also runs, balena's rule", () => {
    const mixed = [
      { id: 1, app_name: 'home', architecture: 'aarch64' },
      { id: 2, app_name: 'pi3s', architecture: 'armv7hf' },
      { id: 3, app_name: 'zeros', architecture: 'rpi' },
      { id: 4, app_name: 'intel', architecture: 'amd64' },
    ];
    expect(moveCandidates(mixed, { fleetId: 1, architecture: 'aarch64' }).map((f) => f.id)).toEqual([2, 3]);
    expect(moveCandidates(mixed, { fleetId: 2, architecture: 'armv7hf' }).map((f) => f.id)).toEqual([3]);
    expect(moveCandidates(mixed, { fleetId: 3, architecture: 'rpi' })).toEqual([]);
  });
});

describe('movePersistentStorageWarning', () => {
  it('warns below OS 2.12.0 only', () => {
    expect(movePersistentStorageWarning('balenaOS 2.11.9')).toBe(true);
    expect(movePersistentStorageWarning('Resin OS 1.30.0')).toBe(true);
    expect(movePersistentStorageWarning('balenaOS 2.12.0')).toBe(false);
    expect(movePersistentStorageWarning('balenaOS 5.3.0')).toBe(false);
    expect(movePersistentStorageWarning(null)).toBe(false);
  });
});

