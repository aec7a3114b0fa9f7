import { describe, expect, it } from 'vitest';
import { boundsOf, clusterIndex, clusterPoints, graticule } from './cluster';

const athens = { id: 1, lat: 37.98, lng: 23.73 };
const piraeus = { id: 2, lat: 37.94, lng: 23.65 };
const lisbon = { id: 3, lat: 38.72, lng: -9.14 };

describe('clusterPoints', () => {
  it('groups nearby devices at a far zoom and splits them when zoomed in', () => {
    const far = clusterPoints([athens, piraeus, lisbon], 3);
    expect(far.map((c) => c.members.map((m) => m.id).sort()).sort()).toEqual([[1, 2], [3]]);
    const near = clusterPoints([athens, piraeus, lisbon], 12);
    expect(near).toHaveLength(3);
  });

  it('places a cluster at the mean position of its members', () => {
    const [c] = clusterPoints([athens, piraeus], 2);
    expect(c!.members).toHaveLength(2);
    expect(c!.lat).toBeCloseTo((37.98 + 37.94) / 2, 6);
    expect(c!.lng).toBeCloseTo((23.73 + 23.65) / 2, 6);
  });

  it('keeps every point exactly once', () => {
    const points = Array.from({ length: 500 }, (_, i) => ({ id: i, lat: -60 + ((i * 37) % 120), lng: -170 + ((i * 71) % 340) }));
    for (const zoom of [0, 3, 8]) {
      const ids = clusterPoints(points, zoom).flatMap((c) => c.members.map((m) => m.id));
      expect(ids.sort((a, b) => a - b)).toEqual(points.map((p) => p.id));
    }
  });

  it('keeps devices at one position together at the deepest zoom, and an index answers every zoom', () => {
    const twin = { id: 4, lat: athens.lat, lng: athens.lng };
    const at = clusterIndex([athens, twin, piraeus], undefined, 18);
    expect(at(18).map((c) => c.members.map((m) => m.id).sort())).toContainEqual([1, 4]);
    expect(at(18)).toHaveLength(2);
    expect(at(2)).toHaveLength(1);
  });

  it('returns nothing for no points', () => {
    expect(clusterPoints([], 5)).toEqual([]);
  });
});

describe('boundsOf', () => {
  it('spans the points', () => {
    expect(boundsOf([athens, lisbon])).toEqual([
      [37.98, -9.14],
      [38.72, 23.73],
    ]);
    expect(boundsOf([])).toBeNull();
  });
});

describe('graticule', () => {
  it('draws parallels and meridians every step degrees', () => {
    const lines = graticule(30);
    // 5 parallels (-60 … 60) and 13 meridians (-180 … 180).
    expect(lines).toHaveLength(18);
    expect(lines[0]).toEqual([
      [-60, -180],
      [-60, 180],
    ]);
  });
});
