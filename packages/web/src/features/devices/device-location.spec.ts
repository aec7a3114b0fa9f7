import { describe, expect, it } from 'vitest';
import { coordinateError, initialLocationForm, locationChanged, locationSaveDisabled, mapPositions, type LocationFormValues } from './device-location';

describe('mapPositions', () => {
  it('places each device at its custom location first, else its reported one, and counts the rest', () => {
    const rows = [
      { id: 1, latitude: '10.5', longitude: '20.25', custom_latitude: '-33.8688', custom_longitude: '151.2093' },
      { id: 2, latitude: '10.5', longitude: '20.25', custom_latitude: '', custom_longitude: '' },
      { id: 3, latitude: null, longitude: null, custom_latitude: null, custom_longitude: null },
      { id: 4, latitude: 'nowhere', longitude: '1', custom_latitude: null, custom_longitude: null },
    ];
    const { located, unlocated } = mapPositions(rows);
    expect(located.map((d) => [d.id, d.lat, d.lng])).toEqual([
      [1, -33.8688, 151.2093],
      [2, 10.5, 20.25],
    ]);
    expect(unlocated).toBe(2);
  });

  it('keeps the fraction of a coordinate rather than truncating it to whole degrees', () => {
    const { located } = mapPositions([{ id: 1, latitude: '37.98381', longitude: '23.72753' }]);
    expect(located[0]).toMatchObject({ lat: 37.98381, lng: 23.72753 });
  });
});

describe('location form', () => {
  const geo: LocationFormValues = { mode: 'geo', latitude: '', longitude: '' };
  const manual: LocationFormValues = { mode: 'manual', latitude: '38.1', longitude: '23.7' };

  it('starts in manual mode only when the device has a valid custom location', () => {
    expect(initialLocationForm({ custom_latitude: '38.1', custom_longitude: '23.7', latitude: '1', longitude: '2' })).toEqual(manual);
    expect(initialLocationForm({ custom_latitude: '', custom_longitude: '', latitude: '1', longitude: '2' })).toEqual(geo);
    expect(initialLocationForm({})).toEqual(geo);
  });

  it('validates each coordinate as typed: required, then a number in range', () => {
    expect(coordinateError('', 'latitude')).toBe('required');
    expect(coordinateError('abc', 'latitude')).toBe('invalid');
    expect(coordinateError('95', 'latitude')).toBe('invalid');
    expect(coordinateError('95', 'longitude')).toBeNull();
    expect(coordinateError('-12.5', 'latitude')).toBeNull();
  });

  it('disables Save while unchanged', () => {
    expect(locationChanged(manual, manual)).toBe(false);
    expect(locationSaveDisabled({ values: manual, initial: manual, saving: false, canUpdate: true })).toBe(true);
    expect(locationSaveDisabled({ values: { ...manual, latitude: ' 38.1 ' }, initial: manual, saving: false, canUpdate: true })).toBe(true);
  });

  it('disables Save while saving or without permission', () => {
    const changed = { ...manual, latitude: '40' };
    expect(locationSaveDisabled({ values: changed, initial: manual, saving: false, canUpdate: true })).toBe(false);
    expect(locationSaveDisabled({ values: changed, initial: manual, saving: true, canUpdate: true })).toBe(true);
    expect(locationSaveDisabled({ values: changed, initial: manual, saving: false, canUpdate: false })).toBe(true);
  });

  it('disables Save in manual mode without both numeric coordinates', () => {
    const from = geo;
    expect(locationSaveDisabled({ values: { mode: 'manual', latitude: '38', longitude: '' }, initial: from, saving: false, canUpdate: true })).toBe(true);
    expect(locationSaveDisabled({ values: { mode: 'manual', latitude: '38', longitude: 'east' }, initial: from, saving: false, canUpdate: true })).toBe(true);
    expect(locationSaveDisabled({ values: { mode: 'manual', latitude: '38', longitude: '23' }, initial: from, saving: false, canUpdate: true })).toBe(false);
  });

  it('allows switching back to geo location (which clears the custom one)', () => {
    expect(locationSaveDisabled({ values: { ...manual, mode: 'geo' }, initial: manual, saving: false, canUpdate: true })).toBe(false);
  });
});
