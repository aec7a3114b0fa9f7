import { Checkbox } from '@mui/material';
import type { Key } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type Column } from './data-table';

interface Props<Row> {
  label: string;
  rows: Row[];
  columns: Column<Row>[];
  getId: (row: Row) => number;
  getName: (row: Row) => string;
  /** Administrators select rows (remove). */
  canManage: boolean;
  selected: ReadonlySet<number>;
  onSelectedChange: (selected: Set<number>) => void;
}

/** The shared DataTable with a select column (team members, team access, fleet teams). */
export function SelectableTable<Row>({ label, rows, columns, getId, getName, canManage, selected, onSelectedChange }: Props<Row>) {
  const { t } = useTranslation();
  const allSelected = rows.length > 0 && rows.every((r) => selected.has(getId(r)));
  const select: Column<Row> = {
    key: 'select',
    header: (
      <Checkbox
        size="small"
        checked={allSelected}
        indeterminate={selected.size > 0 && !allSelected}
        onChange={(e) => onSelectedChange(e.target.checked ? new Set(rows.map(getId)) : new Set())}
        slotProps={{ input: { 'aria-label': t('teams.select_all', { label }) } }}
      />
    ),
    render: (row) => (
      <Checkbox
        size="small"
        checked={selected.has(getId(row))}
        onChange={(e) => {
          const next = new Set(selected);
          if (e.target.checked) next.add(getId(row));
          else next.delete(getId(row));
          onSelectedChange(next);
        }}
        slotProps={{ input: { 'aria-label': t('teams.select_row', { name: getName(row) }) } }}
      />
    ),
  };
  return (
    <DataTable
      label={label}
      columns={canManage ? [select, ...columns] : columns}
      rows={rows}
      getRowKey={(row): Key => getId(row)}
    />
  );
}
