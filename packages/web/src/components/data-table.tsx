import { Paper, Skeleton, Table, TableBody, TableCell, TableContainer, TableHead, TableRow } from '@mui/material';
import { useLayoutEffect, useRef, useState, type Key, type ReactNode } from 'react';
import { virtualWindow } from './virtual-window';

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
   * stand in for the rest. Row heights are measured from the first rendered row.
   */
  virtualize?: { maxHeight: number; threshold?: number };
}

const ESTIMATED_ROW_HEIGHT = 45;

/** The one table component; long lists can be virtualised. */
export function DataTable<Row>({ label, columns, rows, getRowKey, loading, virtualize }: DataTableProps<Row>) {
  const body = useRef<HTMLTableSectionElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [rowHeight, setRowHeight] = useState(ESTIMATED_ROW_HEIGHT);
  const windowed = virtualize !== undefined && rows !== undefined && rows.length > (virtualize.threshold ?? 100);

  useLayoutEffect(() => {
    if (!windowed) return;
    const first = body.current?.querySelector<HTMLTableRowElement>('tr[data-row]');
    const measured = first?.getBoundingClientRect().height;
    if (measured && Math.abs(measured - rowHeight) > 0.5) setRowHeight(measured);
  });

  const range = windowed
    ? virtualWindow({ count: rows.length, rowHeight, viewportHeight: virtualize.maxHeight, scrollTop })
    : { start: 0, end: rows?.length ?? 0, padTop: 0, padBottom: 0 };
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
      onScroll={windowed ? (e) => setScrollTop(e.currentTarget.scrollTop) : undefined}
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
        <TableBody ref={body}>
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
            : [
                spacer(range.padTop, 'pad-top'),
                ...(rows ?? []).slice(range.start, range.end).map((row, i) => (
                  <TableRow key={getRowKey(row)} hover data-row aria-rowindex={windowed ? range.start + i + 2 : undefined}>
                    {columns.map((c) => (
                      <TableCell key={c.key}>{c.render(row)}</TableCell>
                    ))}
                  </TableRow>
                )),
                spacer(range.padBottom, 'pad-bottom'),
              ]}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
