/**
 * Just enough TopoJSON (the format of world-atlas' Natural Earth countries) to draw
 * polygons: quantized, delta-encoded arcs stitched into rings. Output is Leaflet's order,
 * [lat, lng], one entry per polygon, each a list of rings (outer first, then holes).
 */

type Position = [number, number];

interface TopoGeometry {
  type: string;
  arcs?: number[][] | number[][][];
  id?: string;
  properties?: { name?: string };
}

export interface Topology {
  type: 'Topology';
  transform?: { scale: [number, number]; translate: [number, number] };
  arcs: Position[][];
  objects: Record<string, { type: 'GeometryCollection'; geometries: TopoGeometry[] }>;
}

export interface Shape {
  name: string;
  /** Polygons → rings → [lat, lng]. */
  polygons: Position[][][];
}

function decodeArcs(topology: Topology): Position[][] {
  const t = topology.transform;
  return topology.arcs.map((arc) => {
    if (!t) return arc.map(([x, y]) => [x, y] as Position);
    let x = 0;
    let y = 0;
    return arc.map(([dx, dy]) => {
      x += dx;
      y += dy;
      return [x * t.scale[0] + t.translate[0], y * t.scale[1] + t.translate[1]] as Position;
    });
  });
}

/** The shapes of one object of a topology (e.g. `countries`); non-polygon geometries are skipped. */
export function shapesOf(topology: Topology, object: string): Shape[] {
  const arcs = decodeArcs(topology);
  const ring = (indexes: number[]): Position[] => {
    const points: Position[] = [];
    for (const index of indexes) {
      const arc = index >= 0 ? arcs[index]! : [...arcs[~index]!].reverse();
      // Consecutive arcs share their joining point.
      for (let i = points.length ? 1 : 0; i < arc.length; i++) points.push([arc[i]![1], arc[i]![0]]);
    }
    return points;
  };
  const shapes: Shape[] = [];
  for (const g of topology.objects[object]?.geometries ?? []) {
    const polygons =
      g.type === 'Polygon' ? [(g.arcs as number[][]).map(ring)] : g.type === 'MultiPolygon' ? (g.arcs as number[][][]).map((p) => p.map(ring)) : [];
    if (polygons.length) shapes.push({ name: g.properties?.name ?? g.id ?? '', polygons });
  }
  return shapes;
}
