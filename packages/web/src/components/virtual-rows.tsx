import { measureElement, useVirtualizer } from '@tanstack/react-virtual';
import { useRef, type Key, type ReactNode } from 'react';

/** What a virtualised row must carry so its height is measured. */
export interface MeasuredRow {
  ref: (el: Element | null) => void;
  'data-index': number;
}

export interface VirtualRowsProps<Row> {
  rows: Row[];
  getRowKey: (row: Row) => Key;
  renderRow: (row: Row, index: number, measured: MeasuredRow) => ReactNode;
  /** A row that stands in for `height` pixels of rows not rendered. */
  spacer: (height: number, key: string) => ReactNode;
  /** The box that scrolls (DataTable's container). */
  scrollElement: () => HTMLElement | null;
  /** Height of that box: the first window before it is measured. */
  viewportHeight: number;
  /** A row's height until it is measured. */
  estimatedRowHeight: number;
}

/**
 * DataTable's virtualised body, by @tanstack/react-virtual: the rows in view plus an overscan
 * of 8 on each side, each measured as it renders (the others estimated from them); two spacer
 * rows stand in for the rest, so the table keeps its native layout and sticky header. Fetched
 * on demand by DataTable, which keeps the library off every first page.
 */
export default function VirtualRows<Row>({ rows, getRowKey, renderRow, spacer, scrollElement, viewportHeight, estimatedRowHeight }: VirtualRowsProps<Row>) {
  // Rows not rendered yet are estimated at the height of the last row measured, so the spacers
  // (and a jump to the end) are right from the first screenful on.
  const typical = useRef(estimatedRowHeight);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: scrollElement,
    estimateSize: () => typical.current,
    measureElement: (element, entry, instance) => (typical.current = measureElement(element, entry, instance)),
    getItemKey: (index) => getRowKey(rows[index]!),
    overscan: 8,
    initialRect: { width: 0, height: viewportHeight },
    // Start where the list is scrolled (the first 20 rows show until this loads), not at the top.
    initialOffset: () => scrollElement()?.scrollTop ?? 0,
    // Render when React schedules it: flushSync from inside a render warns under React 19.
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();
  const padTop = items[0]?.start ?? 0;
  const padBottom = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  return (
    <>
      {spacer(padTop, 'pad-top')}
      {items.map((item) => renderRow(rows[item.index]!, item.index, { ref: virtualizer.measureElement, 'data-index': item.index }))}
      {spacer(padBottom, 'pad-bottom')}
    </>
  );
}
