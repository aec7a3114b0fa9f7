import { Paper, Skeleton, Table, TableBody, TableCell, TableContainer, TableHead, TableRow } from '@mui/material';
import { lazy, Suspense, useRef, type Key, type ReactNode } from 'react';
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

// Generic components lose their type parameter through lazy(); this restores it.
const VirtualRows = lazy(() => import('./virtual-rows')) as unknown as <Row>(props: VirtualRowsProps<Row>) => ReactNode;

/** The one table component; long lists can be virtualised. */
export function DataTable<Row>({ label, columns, rows, getRowKey, loading, virtualize }: DataTableProps<Row>) {
  const container = useRef<HTMLDivElement>(null);
  const windowed = virtualize !== undefined && rows !== undefined && rows.length > (virtualize.threshold ?? 100);
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
            : windowed
              ? (
                  // Until the virtualiser loads: the first screenful, and the rest's height.
                  <Suspense
                    fallback={
                      <>
                        {rows.slice(0, FIRST_WINDOW).map((row, i) => renderRow(row, i))}
                        {spacer((rows.length - Math.min(rows.length, FIRST_WINDOW)) * ESTIMATED_ROW_HEIGHT, 'pad-bottom')}
                      </>
                    }
                  >
                    <VirtualRows
                      rows={rows}
                      getRowKey={getRowKey}
                      renderRow={renderRow}
                      spacer={spacer}
                      scrollElement={() => container.current}
                      viewportHeight={virtualize.maxHeight}
                      estimatedRowHeight={ESTIMATED_ROW_HEIGHT}
                    />
                  </Suspense>
                )
              : (rows ?? []).map((row, i) => renderRow(row, i))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
