import { Paper, Skeleton, Table, TableBody, TableCell, TableContainer, TableHead, TableRow } from '@mui/material';
import { useEffect, useRef, useState, type Key, type ReactNode } from 'react';
import type { MeasuredRow, VirtualRowsProps } from './virtual-rows';

export interface Column<Row> {
  key: string;
  /** Usually text; a node for e.g. a select-all checkbox. */
  header: ReactNode;
  render: (row: Row) => ReactNode;
}

interface DataTableProps<Row> {
  /** Accessible name of the table, e.g. "Fleets". */
  label: string;
  columns: Column<Row>[];
  rows: Row[] | undefined;
  getRowKey: (row: Row) => Key;
  loading?: boolean;
  /**
   * Render only the rows in view once there are more than `threshold` (default 100): the
   * table scrolls inside a box of `maxHeight` px with a sticky header, and two spacer rows
   * stand in for the rest (virtual-rows.tsx, loaded on demand). Rows are measured as they render.
   */
  virtualize?: { maxHeight: number; threshold?: number };
}

const ESTIMATED_ROW_HEIGHT = 45;
/** Rows shown while the virtualiser loads. */
const FIRST_WINDOW = 20;

type VirtualRowsComponent = <Row>(props: VirtualRowsProps<Row>) => ReactNode;
/** The virtualised body, fetched once by the first table that may need it; 'failed' renders every row. */
let virtualRows: VirtualRowsComponent | 'failed' | undefined;
let loadingVirtualRows: Promise<VirtualRowsComponent | 'failed'> | undefined;
const loadVirtualRows = () =>
  (loadingVirtualRows ??= import('./virtual-rows').then(
    (m) => (virtualRows = m.default),
    () => (virtualRows = 'failed'),
  ));

/** The one table component; long lists can be virtualised. */
export function DataTable<Row>({ label, columns, rows, getRowKey, loading, virtualize }: DataTableProps<Row>) {
  const container = useRef<HTMLDivElement>(null);
  const windowed = virtualize !== undefined && rows !== undefined && rows.length > (virtualize.threshold ?? 100);
  // Fetched as soon as the table may virtualise, usually before the list gets long. Not through
  // React.lazy: Suspense reveals its content late, after the virtualiser has read the scroll
  // position, so a list scrolled meanwhile would jump back to the top.
  const [VirtualRows, setVirtualRows] = useState<VirtualRowsComponent | 'failed' | undefined>(() => virtualRows);
  const mayVirtualize = virtualize !== undefined;
  useEffect(() => {
    if (!mayVirtualize || VirtualRows) return undefined;
    let live = true;
    void loadVirtualRows().then((loaded) => live && setVirtualRows(() => loaded));
    return () => {
      live = false;
    };
  }, [mayVirtualize, VirtualRows]);
  const renderRow = (row: Row, index: number, measured?: MeasuredRow) => (
    <TableRow key={getRowKey(row)} {...measured} hover data-row aria-rowindex={windowed ? index + 2 : undefined}>
      {columns.map((c) => (
        <TableCell key={c.key}>{c.render(row)}</TableCell>
      ))}
    </TableRow>
  );
  const spacer = (height: number, key: string) =>
    height > 0 ? (
      <TableRow key={key} aria-hidden="true" style={{ height }}>
        <TableCell colSpan={columns.length} sx={{ p: 0, border: 0 }} />
      </TableRow>
    ) : null;

  return (
    <TableContainer
      component={Paper}
      variant="outlined"
      ref={container}
      sx={windowed ? { maxHeight: virtualize.maxHeight } : undefined}
    >
      <Table aria-label={label} aria-busy={loading || undefined} aria-rowcount={windowed ? rows.length + 1 : undefined} size="small" stickyHeader={windowed}>
        <TableHead>
          <TableRow>
            {columns.map((c) => (
              <TableCell key={c.key} sx={{ fontWeight: 600 }}>
                {c.header}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {loading && !rows
            ? [0, 1, 2].map((i) => (
                <TableRow key={i}>
                  {columns.map((c) => (
                    <TableCell key={c.key}>
                      <Skeleton />
                    </TableCell>
                  ))}
                </TableRow>
              ))
            : windowed && VirtualRows !== 'failed'
              ? VirtualRows
                ? (
                    <VirtualRows
                      rows={rows}
                      getRowKey={getRowKey}
                      renderRow={renderRow}
                      spacer={spacer}
                      scrollElement={() => container.current}
                      viewportHeight={virtualize.maxHeight}
                      estimatedRowHeight={ESTIMATED_ROW_HEIGHT}
                    />
                  )
                : // Until the virtualiser has loaded: the first screenful, and the rest's height.
                  [...rows.slice(0, FIRST_WINDOW).map((row, i) => renderRow(row, i)), spacer((rows.length - Math.min(rows.length, FIRST_WINDOW)) * ESTIMATED_ROW_HEIGHT, 'pad-bottom')]
              : (rows ?? []).map((row, i) => renderRow(row, i))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
