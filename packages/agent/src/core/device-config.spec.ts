import { describe, expect, it } from 'vitest';
import {
  canonicalConfigName,
  changedEnvironments,
  hookDocument,
  hostConfig,
  isAgentConfig,
  isLocalMode,
  namesNeedingReboot,
  overridesLock,
  rebootAllowed,
  rebootNames,
} from './device-config.js';

describe('configuration variables: what the agent applies, what goes to the host', () => {
  it('keeps poll interval, local mode and lock override (either prefix) and hands every other variable to the host', () => {
    const config = {
      RESIN_SUPERVISOR_POLL_INTERVAL: '60000',
      BALENA_SUPERVISOR_LOCAL_MODE: '0',
      RESIN_SUPERVISOR_OVERRIDE_LOCK: '1',
      BALENA_HOST_CONFIG_gpu_mem: '128',
      RESIN_SUPERVISOR_PERSISTENT_LOGGING: 'true',
      BALENA_SUPERVISOR_DELTA: 'false',
    };
    expect(hostConfig(config)).toEqual({ BALENA_HOST_CONFIG_gpu_mem: '128', BALENA_SUPERVISOR_DELTA: 'false', RESIN_SUPERVISOR_PERSISTENT_LOGGING: 'true' });
    expect(Object.keys(hostConfig(config))).toEqual(['BALENA_HOST_CONFIG_gpu_mem', 'BALENA_SUPERVISOR_DELTA', 'RESIN_SUPERVISOR_PERSISTENT_LOGGING']);
    expect(isAgentConfig('SUPERVISOR_POLL_INTERVAL')).toBe(false);
    expect(canonicalConfigName('RESIN_HOST_CONFIG_gpu_mem')).toBe('BALENA_HOST_CONFIG_gpu_mem');
  });

  it('reads local mode and the lock override as 1 or true under either prefix, BALENA_ winning', () => {
    expect(isLocalMode({ RESIN_SUPERVISOR_LOCAL_MODE: '1' })).toBe(true);
    expect(isLocalMode({ BALENA_SUPERVISOR_LOCAL_MODE: 'true' })).toBe(true);
    expect(isLocalMode({ RESIN_SUPERVISOR_LOCAL_MODE: '0' })).toBe(false);
    expect(isLocalMode({ RESIN_SUPERVISOR_LOCAL_MODE: '1', BALENA_SUPERVISOR_LOCAL_MODE: '0' })).toBe(false);
    expect(isLocalMode({})).toBe(false);
    expect(overridesLock({ RESIN_SUPERVISOR_OVERRIDE_LOCK: '1' })).toBe(true);
    expect(overridesLock({ BALENA_SUPERVISOR_OVERRIDE_LOCK: 'false' })).toBe(false);
  });

  it("builds the hook's document: the whole set, what changed since the last accepted one, what needs a reboot", () => {
    const reboot = rebootNames({ BALENA_HOST_CONFIG_gpu_mem: { will_reboot: true }, BALENA_SUPERVISOR_DELTA: {}, BALENA_HOST_CONFIG_dtoverlay: { will_reboot: true } });
    expect([...reboot].sort()).toEqual(['BALENA_HOST_CONFIG_dtoverlay', 'BALENA_HOST_CONFIG_gpu_mem']);
    const first = hookDocument('u', 'raspberrypi4-64', null, { BALENA_SUPERVISOR_DELTA: 'true', RESIN_HOST_CONFIG_gpu_mem: '64' }, reboot);
    expect(first).toEqual({
      version: 1,
      uuid: 'u',
      deviceType: 'raspberrypi4-64',
      config: { BALENA_SUPERVISOR_DELTA: 'true', RESIN_HOST_CONFIG_gpu_mem: '64' },
      changed: ['BALENA_SUPERVISOR_DELTA', 'RESIN_HOST_CONFIG_gpu_mem'],
      reboot: ['RESIN_HOST_CONFIG_gpu_mem'],
    });
    // Only the delta flag changed: no reboot. A removed will_reboot variable does need one.
    expect(hookDocument('u', 't', first.config, { BALENA_SUPERVISOR_DELTA: 'false', RESIN_HOST_CONFIG_gpu_mem: '64' }, reboot).reboot).toEqual([]);
    const removed = hookDocument('u', 't', first.config, { BALENA_SUPERVISOR_DELTA: 'true' }, reboot);
    expect(removed).toMatchObject({ changed: ['RESIN_HOST_CONFIG_gpu_mem'], reboot: ['RESIN_HOST_CONFIG_gpu_mem'] });
    expect(namesNeedingReboot(['X'], reboot)).toEqual([]);
  });

  it('lets a reboot go only without the update lock, or with the lock overridden', () => {
    expect(rebootAllowed(false, {})).toBe(true);
    expect(rebootAllowed(true, {})).toBe(false);
    expect(rebootAllowed(true, { RESIN_SUPERVISOR_OVERRIDE_LOCK: '1' })).toBe(true);
    expect(rebootAllowed(true, { RESIN_SUPERVISOR_OVERRIDE_LOCK: '0' })).toBe(false);
  });

  it('tells which services got a different environment (added, changed, removed names), not new or unchanged ones', () => {
    const prev = { main: { A: '1', B: '2' }, worker: { A: '1' }, gone: { X: '1' } };
    const next = { main: { A: '1', B: '3', C: 'new' }, worker: { A: '1' }, added: { Y: '1' } };
    expect(changedEnvironments(prev, next)).toEqual({ main: ['B', 'C'] });
    expect(changedEnvironments({ main: { A: '1', B: '2' } }, { main: { A: '1' } })).toEqual({ main: ['B'] });
  });
});
