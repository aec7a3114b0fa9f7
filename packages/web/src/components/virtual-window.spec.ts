import { describe, expect, it } from 'vitest';
import { virtualWindow } from './virtual-window';

describe('virtualWindow', () => {
  it('renders the rows in view plus the overscan, and pads the rest', () => {
    // 500 rows of 40 px, a 600 px viewport scrolled to row 100.
    const w = virtualWindow({ count: 500, rowHeight: 40, viewportHeight: 600, scrollTop: 4000, overscan: 5 });
    expect(w).toEqual({ start: 95, end: 121, padTop: 95 * 40, padBottom: (500 - 121) * 40 });
    // Spacers and rendered rows add up to the whole list's height.
    expect(w.padTop + (w.end - w.start) * 40 + w.padBottom).toBe(500 * 40);
  });

  it('clamps at both ends', () => {
    expect(virtualWindow({ count: 500, rowHeight: 40, viewportHeight: 600, scrollTop: 0, overscan: 5 })).toMatchObject({ start: 0, end: 21, padTop: 0 });
    const bottom = virtualWindow({ count: 500, rowHeight: 40, viewportHeight: 600, scrollTop: 999_999, overscan: 5 });
    expect(bottom).toMatchObject({ end: 500, padBottom: 0 });
    // Scrolled past the end: the last screenful still renders.
    expect(bottom.start).toBe(500 - 16 - 5); // 16 rows fill 600 px (15 + a partial one)
  });

  it('renders everything when the list fits', () => {
    expect(virtualWindow({ count: 3, rowHeight: 40, viewportHeight: 600, scrollTop: 0 })).toEqual({ start: 0, end: 3, padTop: 0, padBottom: 0 });
  });
});
