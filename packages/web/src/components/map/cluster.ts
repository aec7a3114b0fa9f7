import Supercluster from 'supercluster';

/**
 * Marker clustering for the maps (spec 2 §2 Map lens), by supercluster: points within
 * `radiusPx` screen pixels of each other at the map's zoom (Web Mercator, 256-pixel tiles, as
 * the map library draws them) form one cluster, and zooming in splits it. The index is built
 * once per set of points; the map component asks it for the clusters at every zoom change.
 */

export interface MapPoint {
  /** Stable key (a device id). */
  id: number;
  lat: number;
  lng: number;
}

export interface Cluster<P extends MapPoint> {
  /** Stable for one index at one zoom. */
  key: string;
  /** The mean position of the members. */
  lat: number;
  lng: number;
  members: P[];
}

/** Leaflet's tile size: supercluster's radius is in pixels of a tile this wide. */
const TILE = 256;
/** Half the 64-pixel cells of the former grid: a cluster spans about one such cell on screen. */
const RADIUS_PX = 32;
/** The maps' deepest zoom: devices at one position still form a cluster there (its popup lists them). */
const MAX_ZOOM = 18;

/** Clusters of `points` at a zoom level; single points come back as one-member clusters. */
export type ClusterIndex<P extends MapPoint> = (zoom: number) => Cluster<P>[];

export function clusterIndex<P extends MapPoint>(points: readonly P[], radiusPx = RADIUS_PX, maxZoom = MAX_ZOOM): ClusterIndex<P> {
  const index = new Supercluster<{ at: number }>({ radius: radiusPx, extent: TILE, maxZoom, minPoints: 2 });
  index.load(points.map((p, at) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [p.lng, p.lat] }, properties: { at } })));
  return (zoom) =>
    index.getClusters([-180, -90, 180, 90], Math.floor(zoom)).map((feature): Cluster<P> => {
      const members =
        'cluster' in feature.properties
          ? index.getLeaves(feature.properties.cluster_id, Infinity).map((leaf) => points[leaf.properties.at]!)
          : [points[feature.properties.at]!];
      return {
        key: 'cluster' in feature.properties ? `c${feature.properties.cluster_id}` : `p${members[0]!.id}`,
        lat: members.reduce((s, m) => s + m.lat, 0) / members.length,
        lng: members.reduce((s, m) => s + m.lng, 0) / members.length,
        members,
      };
    });
}

/** Clusters of `points` at one zoom (builds an index for one use). */
export function clusterPoints<P extends MapPoint>(points: readonly P[], zoom: number, radiusPx = RADIUS_PX): Cluster<P>[] {
  return clusterIndex(points, radiusPx)(zoom);
}

// Web Mercator's limit: beyond it the projection runs off to infinity.
const MAX_LAT = 85.05112878;

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
