import { describe, expect, it } from 'vitest';
import { effectiveConfig, effectiveEnvironment, effectiveValues } from './effective.js';

describe('effectiveEnvironment', () => {
  it('lets each later level win: image → fleet → fleet service → device → device service', () => {
    const vars = effectiveEnvironment({
      image: { A: 'image', B: 'image', C: 'image', D: 'image', E: 'image', ONLY_IMAGE: '1' },
      fleet: { B: 'fleet', C: 'fleet', D: 'fleet', E: 'fleet' },
      fleetService: { C: 'service', D: 'service', E: 'service' },
      device: { D: 'device', E: 'device' },
      deviceService: { E: 'device-service' },
    });
    expect(effectiveValues(vars)).toEqual({ A: 'image', B: 'fleet', C: 'service', D: 'device', E: 'device-service', ONLY_IMAGE: '1' });
    expect(vars.map((v) => [v.name, v.level])).toEqual([
      ['A', 'image'],
      ['B', 'fleet'],
      ['C', 'fleet-service'],
      ['D', 'device'],
      ['E', 'device-service'],
      ['ONLY_IMAGE', 'image'],
    ]);
  });

  it('lists what a value overrides, nearest level first', () => {
    const [e] = effectiveEnvironment({ image: { E: '1' }, fleet: { E: '2' }, device: { E: '4' }, deviceService: { E: '5' } });
    expect(e).toEqual({
      name: 'E',
      value: '5',
      level: 'device-service',
      overrides: [
        { level: 'device', value: '4' },
        { level: 'fleet', value: '2' },
        { level: 'image', value: '1' },
      ],
    });
  });

  it('sorts by name (code points) and works with missing levels', () => {
    expect(effectiveEnvironment({ device: { b: '1', B: '2', a: '3' } }).map((v) => v.name)).toEqual(['B', 'a', 'b']);
    expect(effectiveEnvironment({})).toEqual([]);
  });

  it('keeps an empty value as a value', () => {
    expect(effectiveValues(effectiveEnvironment({ fleet: { X: 'set' }, device: { X: '' } }))).toEqual({ X: '' });
  });
});

describe('effectiveConfig', () => {
  const schema = {
    BALENA_SUPERVISOR_POLL_INTERVAL: { description: 'poll', type: 'integer', default: '900000' },
    BALENA_HOST_CONFIG_gpu_mem: { description: 'gpu', type: 'integer', default: '16' },
    BALENA_HOST_CONFIG_dtoverlay: { description: 'no default', type: 'string' },
  } as const;

  it('lets device configuration win over the fleet’s', () => {
    const vars = effectiveConfig({ RESIN_A: 'fleet', RESIN_B: 'fleet' }, { RESIN_B: 'device' });
    expect(vars).toEqual([
      { name: 'RESIN_A', value: 'fleet', level: 'fleet-config', overrides: [] },
      { name: 'RESIN_B', value: 'device', level: 'device-config', overrides: [{ level: 'fleet-config', value: 'fleet' }] },
    ]);
  });

  it('adds schema defaults only for names neither level sets, and never sends them', () => {
    const vars = effectiveConfig({ BALENA_SUPERVISOR_POLL_INTERVAL: '60000' }, { BALENA_X: '1' }, { ...schema });
    expect(vars.map((v) => [v.name, v.value, v.level])).toEqual([
      ['BALENA_HOST_CONFIG_gpu_mem', '16', 'schema-default'],
      ['BALENA_SUPERVISOR_POLL_INTERVAL', '60000', 'fleet-config'],
      ['BALENA_X', '1', 'device-config'],
    ]);
    expect(effectiveValues(vars)).toEqual({ BALENA_HOST_CONFIG_gpu_mem: '16', BALENA_SUPERVISOR_POLL_INTERVAL: '60000', BALENA_X: '1' });
    expect(effectiveValues(vars, { sentOnly: true })).toEqual({ BALENA_SUPERVISOR_POLL_INTERVAL: '60000', BALENA_X: '1' });
  });
});
