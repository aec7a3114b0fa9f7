/**
 * Marker clustering for the maps (spec 2 §2 Map lens). Points are grouped on a grid of
 * `cellPx` screen pixels at the map's zoom (Web Mercator, 256-pixel tiles, as the map
 * library draws them), so a cluster never spans more than about one cell on screen and
 * zooming in splits it. Pure: the map component calls it on every zoom change.
 */

export interface MapPoint {
  /** Stable key (a device id). */
  id: number;
  lat: number;
  lng: number;
}

export interface Cluster<P extends MapPoint> {
  /** Stable per grid cell at one zoom. */
  key: string;
  /** The mean position of the members. */
  lat: number;
  lng: number;
  members: P[];
}

const TILE = 256;
// Web Mercator's limit: beyond it the projection runs off to infinity.
const MAX_LAT = 85.05112878;

/** World pixel coordinates of a position at a zoom level. */
export function project(lat: number, lng: number, zoom: number): { x: number; y: number } {
  const scale = TILE * 2 ** zoom;
  const clamped = Math.max(-MAX_LAT, Math.min(MAX_LAT, lat));
  const sin = Math.sin((clamped * Math.PI) / 180);
  return {
    x: ((lng + 180) / 360) * scale,
    y: (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * scale,
  };
}

/** Groups points that share a `cellPx` grid cell at `zoom`; single points come back as one-member clusters. */
export function clusterPoints<P extends MapPoint>(points: readonly P[], zoom: number, cellPx = 64): Cluster<P>[] {
  const cells = new Map<string, P[]>();
  for (const p of points) {
    const { x, y } = project(p.lat, p.lng, zoom);
    const key = `${Math.floor(x / cellPx)}:${Math.floor(y / cellPx)}`;
    const cell = cells.get(key);
    if (cell) cell.push(p);
    else cells.set(key, [p]);
  }
  return [...cells].map(([key, members]) => ({
    key,
    lat: members.reduce((s, m) => s + m.lat, 0) / members.length,
    lng: members.reduce((s, m) => s + m.lng, 0) / members.length,
    members,
  }));
}

/** The south-west and north-east corners around the points, or null for none. */
export function boundsOf(points: readonly MapPoint[]): [[number, number], [number, number]] | null {
  if (points.length === 0) return null;
  let south = 90;
  let west = 180;
  let north = -90;
  let east = -180;
  for (const p of points) {
    south = Math.min(south, p.lat);
    north = Math.max(north, p.lat);
    west = Math.min(west, p.lng);
    east = Math.max(east, p.lng);
  }
  return [
    [south, west],
    [north, east],
  ];
}

/** Graticule lines every `step` degrees (a light grid drawn when there are no tiles). */
export function graticule(step = 30): [number, number][][] {
  const lines: [number, number][][] = [];
  for (let lat = -90 + step; lat < 90; lat += step) lines.push([[lat, -180], [lat, 180]]);
  for (let lng = -180; lng <= 180; lng += step) {
    const line: [number, number][] = [];
    for (let lat = -MAX_LAT; lat <= MAX_LAT; lat += 5) line.push([lat, lng]);
    line.push([MAX_LAT, lng]);
    lines.push(line);
  }
  return lines;
}
