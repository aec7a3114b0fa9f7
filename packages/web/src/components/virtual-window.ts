/**
 * Which rows of a long list to render (DataTable's virtualisation): those in the viewport
 * plus `overscan` on each side; the rest are stood in for by two spacers of the same height.
 */
export interface VirtualWindow {
  start: number;
  /** One past the last row to render. */
  end: number;
  padTop: number;
  padBottom: number;
}

export function virtualWindow(o: { count: number; rowHeight: number; viewportHeight: number; scrollTop: number; overscan?: number }): VirtualWindow {
  const overscan = o.overscan ?? 8;
  const rowHeight = Math.max(1, o.rowHeight);
  const visible = Math.ceil(Math.max(0, o.viewportHeight) / rowHeight) + 1;
  // Scrolled past the end (the list just got shorter): show its last rows.
  const first = Math.min(Math.floor(Math.max(0, o.scrollTop) / rowHeight), Math.max(0, o.count - visible));
  const start = Math.max(0, Math.min(o.count, first - overscan));
  const end = Math.max(start, Math.min(o.count, first + visible + overscan));
  return { start, end, padTop: start * rowHeight, padBottom: (o.count - end) * rowHeight };
}
