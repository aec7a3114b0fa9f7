import { Paper, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { DefinitionRows } from '../../../components/definition-rows';
import { formatDate } from '../../../lib/date-format';

/** A titled card of label/value rows (a <dl>), the layout of the summary cards. */
export function DetailsList({ title, rows, children }: { title: string; rows: [string, ReactNode][]; children?: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-label={title} sx={{ p: 2, flex: 1, minWidth: 300 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      <DefinitionRows rows={rows} />
      {children}
    </Paper>
  );
}

/** A date as the summary shows it (the dashboard's one format, spec 3 §9), with the machine-readable value kept. */
export function DateText({ value }: { value: string; language?: string; time?: boolean }) {
  const text = formatDate(value);
  return text === undefined ? <>{value}</> : <time dateTime={value}>{text}</time>;
}
