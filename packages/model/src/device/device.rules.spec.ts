import { describe, expect, it } from 'vitest';
import { DEVICE_TYPES } from '../device-type/device-types.js';
import { DEFAULT_POLL_INTERVAL_MS, heartbeatState, osVariantOf } from './device.rules.js';

describe('heartbeatState', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);

  it('is unknown for a device that never polled', () => {
    expect(heartbeatState(null, 15_000, now)).toBe('unknown');
    expect(heartbeatState(undefined, 15_000, now)).toBe('unknown');
  });

  it('is online within the interval plus a third of it', () => {
    expect(heartbeatState(ago(0), 15_000, now)).toBe('online');
    expect(heartbeatState(ago(15_000), 15_000, now)).toBe('online');
    expect(heartbeatState(ago(19_950), 15_000, now)).toBe('online');
  });

  it('is timeout past the window, up to twice it', () => {
    expect(heartbeatState(ago(19_951), 15_000, now)).toBe('timeout');
    expect(heartbeatState(ago(39_900), 15_000, now)).toBe('timeout');
  });

  it('is offline beyond twice the window', () => {
    expect(heartbeatState(ago(39_901), 15_000, now)).toBe('offline');
    expect(heartbeatState(ago(3_600_000), 15_000, now)).toBe('offline');
  });

  it('scales with the poll interval and accepts epoch numbers', () => {
    expect(heartbeatState(now.getTime() - 700_000, 600_000, now.getTime())).toBe('online');
    expect(heartbeatState(now.getTime() - 900_000, 600_000, now.getTime())).toBe('timeout');
  });

  it('judges an unconfigured device by the 10-minute default, the value the device types advertise', () => {
    expect(DEFAULT_POLL_INTERVAL_MS).toBe(600_000);
    for (const dt of DEVICE_TYPES) expect(dt.configVars.BALENA_SUPERVISOR_POLL_INTERVAL?.default, dt.slug).toBe('600000');
    expect(heartbeatState(now.getTime() - 790_000, undefined, now.getTime())).toBe('online');
    expect(heartbeatState(now.getTime() - 800_000, undefined, now.getTime())).toBe('timeout');
  });
});

describe('osVariantOf', () => {
  it("reads the variant from a version's trailing parentheses, as balena does", () => {
    expect(osVariantOf('balenaOS 2.88.4 (dev)')).toBe('dev');
    expect(osVariantOf('Resin OS 2.3.0+rev1 (prod)')).toBe('prod');
    expect(osVariantOf('balenaOS 2.88.4')).toBeNull();
    expect(osVariantOf('')).toBeNull();
    expect(osVariantOf('balenaOS (dev) 2.88.4')).toBeNull();
  });
});
