import { describe, expect, it } from 'vitest';
import { effectiveConfig, effectiveEnvironment, effectiveValues } from '@flotilla/model';
import { compositionEnvironment } from './environment.js';

// The target state's precedence is the model's (effectiveEnvironment / effectiveConfig,
// unit-tested there too); these keep the target-state view of it.
const mergeServiceEnvironment = (layers: Parameters<typeof effectiveEnvironment>[0]) => effectiveValues(effectiveEnvironment(layers));
const mergeConfig = (fleet: Record<string, string>, device: Record<string, string>) => effectiveValues(effectiveConfig(fleet, device), { sentOnly: true });

describe('mergeServiceEnvironment', () => {
  it('lets each later layer win: image → fleet → service → device → device-service', () => {
    const env = mergeServiceEnvironment({
      image: { A: 'image', B: 'image', C: 'image', D: 'image', E: 'image', ONLY_IMAGE: '1' },
      fleet: { B: 'app', C: 'app', D: 'app', E: 'app' },
      fleetService: { C: 'service', D: 'service', E: 'service' },
      device: { D: 'device', E: 'device' },
      deviceService: { E: 'device-service' },
    });
    expect(env).toEqual({ A: 'image', B: 'app', C: 'service', D: 'device', E: 'device-service', ONLY_IMAGE: '1' });
  });

  it('works with missing layers', () => {
    expect(mergeServiceEnvironment({ device: { X: '1' } })).toEqual({ X: '1' });
    expect(mergeServiceEnvironment({})).toEqual({});
  });
});

describe('mergeConfig', () => {
  it('lets device config vars win over fleet ones', () => {
    expect(mergeConfig({ RESIN_A: 'fleet', RESIN_B: 'fleet' }, { RESIN_B: 'device' })).toEqual({ RESIN_A: 'fleet', RESIN_B: 'device' });
  });
});

describe('compositionEnvironment', () => {
  it('reads maps and KEY=value lists', () => {
    expect(compositionEnvironment({ A: 1, B: 'x', C: null })).toEqual({ A: '1', B: 'x' });
    expect(compositionEnvironment(['A=1', 'B=x=y', 'bad'])).toEqual({ A: '1', B: 'x=y' });
    expect(compositionEnvironment(undefined)).toEqual({});
  });
});
