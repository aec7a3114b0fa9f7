import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { shapesOf, type Topology } from './topojson';

describe('shapesOf', () => {
  it('stitches quantized, delta-encoded arcs (reversed where negative) into [lat, lng] rings', () => {
    const topology: Topology = {
      type: 'Topology',
      transform: { scale: [1, 2], translate: [10, 20] },
      // arc 0: (0,0) → (1,0) → (1,1); arc 1: (1,1) → (0,0)
      arcs: [
        [
          [0, 0],
          [1, 0],
          [0, 1],
        ],
        [
          [1, 1],
          [-1, -1],
        ],
      ],
      objects: {
        things: {
          type: 'GeometryCollection',
          geometries: [
            { type: 'Polygon', arcs: [[0, 1]], properties: { name: 'square-ish' } },
            { type: 'MultiPolygon', arcs: [[[~1, ~0]]], id: '7' },
            { type: 'Point' },
          ],
        },
      },
    };
    const [a, b] = shapesOf(topology, 'things');
    expect(a).toEqual({ name: 'square-ish', polygons: [[[[20, 10], [20, 11], [22, 11], [20, 10]]]] });
    expect(b).toEqual({ name: '7', polygons: [[[[20, 10], [22, 11], [20, 11], [20, 10]]]] });
  });

  it("decodes world-atlas' Natural Earth countries into plausible shapes", () => {
    const path = createRequire(import.meta.url).resolve('world-atlas/countries-110m.json');
    const shapes = shapesOf(JSON.parse(readFileSync(path, 'utf8')) as Topology, 'countries');
    expect(shapes.length).toBeGreaterThan(150);
    const portugal = shapes.find((s) => s.name === 'Portugal')!;
    const [lat, lng] = portugal.polygons[0]![0]![0]!;
    expect(lat).toBeGreaterThan(36);
    expect(lat).toBeLessThan(43);
    expect(lng).toBeGreaterThan(-10);
    expect(lng).toBeLessThan(-6);
    for (const shape of shapes) for (const polygon of shape.polygons) for (const ring of polygon) expect(ring[0]).toEqual(ring[ring.length - 1]);
  });
});
