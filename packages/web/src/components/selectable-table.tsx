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

export interface SelectColumnOptions<Row> {
  rows: readonly Row[];
  getId: (row: Row) => number;
  selected: ReadonlySet<number>;
  onSelectedChange: (selected: Set<number>) => void;
  /** The header checkbox's name (select all). */
  allLabel: string;
  /** A row checkbox's name. */
  rowLabel: (row: Row) => string;
}

/** A table's select column: a select-all checkbox in the header, one checkbox a row. */
export function selectColumn<Row>({ rows, getId, selected, onSelectedChange, allLabel, rowLabel }: SelectColumnOptions<Row>): Column<Row> {
  const allSelected = rows.length > 0 && rows.every((r) => selected.has(getId(r)));
  return {
    key: 'select',
    header: (
      <Checkbox
        size="small"
        checked={allSelected}
        indeterminate={selected.size > 0 && !allSelected}
        onChange={(e) => onSelectedChange(e.target.checked ? new Set(rows.map(getId)) : new Set())}
        slotProps={{ input: { 'aria-label': allLabel } }}
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
        slotProps={{ input: { 'aria-label': rowLabel(row) } }}
      />
    ),
  };
}

/** The shared DataTable with a select column (team members, team access, fleet teams). */
export function SelectableTable<Row>({ label, rows, columns, getId, getName, canManage, selected, onSelectedChange }: Props<Row>) {
  const { t } = useTranslation();
  const select = selectColumn({
    rows,
    getId,
    selected,
    onSelectedChange,
    allLabel: t('teams.select_all', { label }),
    rowLabel: (row) => t('teams.select_row', { name: getName(row) }),
  });
  return (
    <DataTable
      label={label}
      columns={canManage ? [select, ...columns] : columns}
      rows={rows}
      getRowKey={(row): Key => getId(row)}
    />
  );
}
