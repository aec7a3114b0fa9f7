import { Paper, Skeleton, Table, TableBody, TableCell, TableContainer, TableHead, TableRow } from '@mui/material';
import type { Key, ReactNode } from 'react';

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
}

/** The one table component; later grows sorting, paging and virtualisation. */
export function DataTable<Row>({ label, columns, rows, getRowKey, loading }: DataTableProps<Row>) {
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table aria-label={label} aria-busy={loading || undefined} size="small">
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
            : rows?.map((row) => (
                <TableRow key={getRowKey(row)} hover>
                  {columns.map((c) => (
                    <TableCell key={c.key}>{c.render(row)}</TableCell>
                  ))}
                </TableRow>
              ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
