import { describe, expect, it } from 'vitest';
import { customLocationProblem, effectiveLocation, LOCATION_MESSAGES, parseCoordinate } from './location.js';

describe('parseCoordinate', () => {
  it('reads plain decimals within range, keeping their fraction', () => {
    expect(parseCoordinate('37.98381', 'latitude')).toBe(37.98381);
    expect(parseCoordinate(' -122.5 ', 'longitude')).toBe(-122.5);
    expect(parseCoordinate('90', 'latitude')).toBe(90);
    expect(parseCoordinate('-180', 'longitude')).toBe(-180);
  });

  it('rejects empty, non-numeric and out-of-range values', () => {
    for (const v of [null, undefined, '', '  ', 'abc', '12abc', '1e2', '0x10', 'NaN', 'Infinity', '.']) {
      expect(parseCoordinate(v, 'latitude'), String(v)).toBeNull();
    }
    expect(parseCoordinate('90.0001', 'latitude')).toBeNull();
    expect(parseCoordinate('-181', 'longitude')).toBeNull();
    expect(parseCoordinate('120', 'latitude')).toBeNull();
    expect(parseCoordinate('120', 'longitude')).toBe(120);
  });
});

describe('effectiveLocation', () => {
  it('prefers the custom coordinates over the reported ones', () => {
    expect(effectiveLocation({ latitude: '1', longitude: '2', custom_latitude: '3.5', custom_longitude: '4.5' })).toEqual({ lat: 3.5, lng: 4.5, source: 'custom' });
  });

  it('falls back to the reported location when the custom one is unset or half set', () => {
    expect(effectiveLocation({ latitude: '1', longitude: '2', custom_latitude: '', custom_longitude: '' })).toEqual({ lat: 1, lng: 2, source: 'reported' });
    expect(effectiveLocation({ latitude: '1', longitude: '2', custom_latitude: '3', custom_longitude: null })).toEqual({ lat: 1, lng: 2, source: 'reported' });
  });

  it('is null without a complete valid pair', () => {
    expect(effectiveLocation({ latitude: '1', longitude: null })).toBeNull();
    expect(effectiveLocation({ latitude: '100', longitude: '2' })).toBeNull();
    expect(effectiveLocation({})).toBeNull();
  });
});

describe('customLocationProblem', () => {
  it('accepts a write without custom coordinates, a valid pair and an unset pair', () => {
    expect(customLocationProblem({ device_name: 'x' })).toBeNull();
    expect(customLocationProblem({ custom_latitude: '38.1', custom_longitude: '23.7' })).toBeNull();
    expect(customLocationProblem({ custom_latitude: '', custom_longitude: '' })).toBeNull();
    expect(customLocationProblem({ custom_latitude: null, custom_longitude: null })).toBeNull();
  });

  it('needs both coordinates together', () => {
    expect(customLocationProblem({ custom_latitude: '38.1' })).toBe(LOCATION_MESSAGES.pair);
    expect(customLocationProblem({ custom_latitude: '38.1', custom_longitude: '' })).toBe(LOCATION_MESSAGES.pair);
  });

  it('names the coordinate that is not a number in range', () => {
    expect(customLocationProblem({ custom_latitude: '91', custom_longitude: '0' })).toBe(LOCATION_MESSAGES.latitude);
    expect(customLocationProblem({ custom_latitude: 'north', custom_longitude: '0' })).toBe(LOCATION_MESSAGES.latitude);
    expect(customLocationProblem({ custom_latitude: '0', custom_longitude: '181' })).toBe(LOCATION_MESSAGES.longitude);
  });
});
