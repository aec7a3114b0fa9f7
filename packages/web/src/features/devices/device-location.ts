import { customLocation, effectiveLocation, parseCoordinate, type DeviceCoordinates } from '@flotilla/model';

/**
 * The device location rules of the map lens and the Location page (spec 2 §2, §4 "Location
 * form", §5): which position a device shows at, and when the form may save.
 */

export interface LocatedRow extends DeviceCoordinates {
  id: number;
}

/**
 * The rows that have a position (custom coordinates override the device's own, spec 2 §2)
 * with that position, and how many have none. Coordinates are read as decimal numbers:
 * the spec's "integer-parsed" is the text-to-number step (docs/decisions.md), so a device
 * is not moved by up to ~110 km to a whole degree.
 */
export function mapPositions<R extends LocatedRow>(rows: readonly R[]): { located: (R & { lat: number; lng: number })[]; unlocated: number } {
  const located: (R & { lat: number; lng: number })[] = [];
  for (const row of rows) {
    const at = effectiveLocation(row);
    if (at) located.push({ ...row, lat: at.lat, lng: at.lng });
  }
  return { located, unlocated: rows.length - located.length };
}

/** Geo location: the position the device reports; manual: custom_latitude / custom_longitude. */
export type LocationMode = 'geo' | 'manual';

export interface LocationFormValues {
  mode: LocationMode;
  latitude: string;
  longitude: string;
}

/** The form as stored: manual when the device has a valid custom location. */
export function initialLocationForm(d: DeviceCoordinates): LocationFormValues {
  const custom = customLocation(d);
  return custom
    ? { mode: 'manual', latitude: (d.custom_latitude ?? '').trim(), longitude: (d.custom_longitude ?? '').trim() }
    : { mode: 'geo', latitude: '', longitude: '' };
}

/** Spec 2 §5: both coordinates non-empty and numeric (and, as the server checks, in range). */
export function coordinateError(text: string, axis: 'latitude' | 'longitude'): 'required' | 'invalid' | null {
  if (text.trim() === '') return 'required';
  return parseCoordinate(text, axis) === null ? 'invalid' : null;
}

export function locationChanged(values: LocationFormValues, initial: LocationFormValues): boolean {
  if (values.mode !== initial.mode) return true;
  return values.mode === 'manual' && (values.latitude.trim() !== initial.latitude || values.longitude.trim() !== initial.longitude);
}

/** Spec 2 §4 "Location form": Save is disabled while unchanged, saving, lacking permission or lacking a coordinate. */
export function locationSaveDisabled(s: { values: LocationFormValues; initial: LocationFormValues; saving: boolean; canUpdate: boolean }): boolean {
  if (!s.canUpdate || s.saving || !locationChanged(s.values, s.initial)) return true;
  if (s.values.mode === 'geo') return false;
  return coordinateError(s.values.latitude, 'latitude') !== null || coordinateError(s.values.longitude, 'longitude') !== null;
}
