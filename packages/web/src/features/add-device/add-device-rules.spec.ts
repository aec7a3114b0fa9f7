import { describe, expect, it } from 'vitest';
import { compatibleDeviceTypes, installCommand, shellQuote } from './add-device-rules';

describe('installCommand', () => {
  it('pipes the server’s installer to sh with the fleet, device type and provisioning key', () => {
    expect(installCommand({ origin: 'http://127.0.0.1:8480/', fleetId: 12, deviceType: 'raspberrypi4-64', provisioningKey: 'aB3xYz' })).toBe(
      'curl -fsSL http://127.0.0.1:8480/download/agent/install.sh | sh -s -- --api http://127.0.0.1:8480 --fleet 12 --device-type raspberrypi4-64 --provisioning-key aB3xYz',
    );
  });

  it('quotes what sh would otherwise read as syntax', () => {
    expect(shellQuote('plain-value_1.2')).toBe('plain-value_1.2');
    expect(shellQuote("it's; rm -rf /")).toBe(`'it'\\''s; rm -rf /'`);
    expect(shellQuote('')).toBe("''");
  });
});

describe('compatibleDeviceTypes', () => {
  const types = [
    { slug: 'raspberrypi3', name: 'Raspberry Pi 3', arch: 'armv7hf' },
    { slug: 'raspberrypi4-64', name: 'Raspberry Pi 4 (64 bit)', arch: 'aarch64' },
    { slug: 'intel-nuc', name: 'Intel NUC', arch: 'amd64' },
    { slug: 'raspberry-pi', name: 'Raspberry Pi (v1 / Zero)', arch: 'rpi' },
    { slug: 'beaglebone-black', name: 'BeagleBone Black', arch: 'armv7hf' },
  ];

  it('offers the fleet’s type first, then the types that run its architecture (a 64-bit board runs 32-bit fleets), by name', () => {
    expect(compatibleDeviceTypes(types, 'raspberrypi3').map((d) => d.slug)).toEqual(['raspberrypi3', 'beaglebone-black', 'raspberrypi4-64']);
    expect(compatibleDeviceTypes(types, 'intel-nuc').map((d) => d.slug)).toEqual(['intel-nuc']);
  });

  it('offers nothing when the fleet’s type is unknown', () => {
    expect(compatibleDeviceTypes(types, undefined)).toEqual([]);
  });
});
