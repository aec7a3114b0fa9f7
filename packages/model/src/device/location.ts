/**
 * Device coordinates (spec 2 §3 latitude, longitude, custom_latitude, custom_longitude; §5
 * "Location save needs both latitude and longitude non-empty and numeric"). The dialect
 * stores them as text; the dashboard and the server read them with these rules.
 */

export const LATITUDE_RANGE = { min: -90, max: 90 } as const;
export const LONGITUDE_RANGE = { min: -180, max: 180 } as const;

export const LOCATION_MESSAGES = {
  latitude: 'custom_latitude must be a number between -90 and 90',
  longitude: 'custom_longitude must be a number between -180 and 180',
  pair: 'custom_latitude and custom_longitude must be set together, both numbers or both empty',
} as const;

// A plain decimal number: no exponent, hex, or surrounding text ("1e2", "0x10", "12abc").
const DECIMAL = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** The number a stored coordinate holds, or null when it is empty, not a plain decimal or out of range. */
export function parseCoordinate(value: string | null | undefined, axis: 'latitude' | 'longitude'): number | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (!DECIMAL.test(text)) return null;
  const n = Number(text);
  const range = axis === 'latitude' ? LATITUDE_RANGE : LONGITUDE_RANGE;
  return Number.isFinite(n) && n >= range.min && n <= range.max ? n : null;
}

export interface DeviceCoordinates {
  latitude?: string | null;
  longitude?: string | null;
  custom_latitude?: string | null;
  custom_longitude?: string | null;
}

export interface LatLng {
  lat: number;
  lng: number;
}

/** A device's manual (custom) location when both parts are valid, else null. */
export function customLocation(d: DeviceCoordinates): LatLng | null {
  const lat = parseCoordinate(d.custom_latitude, 'latitude');
  const lng = parseCoordinate(d.custom_longitude, 'longitude');
  return lat !== null && lng !== null ? { lat, lng } : null;
}

/** The location the device reported (geo location) when both parts are valid, else null. */
export function reportedLocation(d: DeviceCoordinates): LatLng | null {
  const lat = parseCoordinate(d.latitude, 'latitude');
  const lng = parseCoordinate(d.longitude, 'longitude');
  return lat !== null && lng !== null ? { lat, lng } : null;
}

/** Spec 2 §2: custom coordinates override the device's own. */
export function effectiveLocation(d: DeviceCoordinates): (LatLng & { source: 'custom' | 'reported' }) | null {
  const custom = customLocation(d);
  if (custom) return { ...custom, source: 'custom' };
  const reported = reportedLocation(d);
  return reported ? { ...reported, source: 'reported' } : null;
}

/**
 * The server's rule for a write of custom_latitude / custom_longitude: both together, each
 * either empty (the SDK's unsetCustomLocation writes '') or a number in range. Returns the
 * spec-worded message of the first problem, or null.
 */
export function customLocationProblem(body: Record<string, unknown>): string | null {
  const hasLat = 'custom_latitude' in body;
  const hasLng = 'custom_longitude' in body;
  if (!hasLat && !hasLng) return null;
  if (hasLat !== hasLng) return LOCATION_MESSAGES.pair;
  const empty = (v: unknown) => v === null || v === '';
  const lat = body.custom_latitude;
  const lng = body.custom_longitude;
  if (empty(lat) && empty(lng)) return null;
  if (empty(lat) || empty(lng)) return LOCATION_MESSAGES.pair;
  // balena-sdk's setCustomLocation sends the numbers as strings; accept numbers as well.
  const text = (v: unknown) => (typeof v === 'number' ? String(v) : typeof v === 'string' ? v : undefined);
  if (parseCoordinate(text(lat), 'latitude') === null) return LOCATION_MESSAGES.latitude;
  if (parseCoordinate(text(lng), 'longitude') === null) return LOCATION_MESSAGES.longitude;
  return null;
}
