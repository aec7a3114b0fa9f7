import { Alert, List, Paper, Skeleton, Typography } from '@mui/material';
import { useId, type ReactNode } from 'react';

/** Spec 1 §9: summary lists are capped at 300 px and scroll. */
export const SUMMARY_LIST_MAX_HEIGHT = 300;

interface Props {
  title: string;
  loading: boolean;
  error?: string | undefined;
  empty?: string | undefined;
  children: ReactNode;
}

/** A titled card holding one list (members, fleets, a team's members) that scrolls past 300 px. */
export function SummaryListCard({ title, loading, error, empty, children }: Props) {
  const titleId = useId();
  return (
    <Paper variant="outlined" component="section" aria-labelledby={titleId} sx={{ p: 2, flex: 1, minWidth: 0 }}>
      <Typography id={titleId} variant="h6" component="h2" gutterBottom>
        {title}
      </Typography>
      {loading ? (
        <>
          <Skeleton />
          <Skeleton />
        </>
      ) : error ? (
        <Alert severity="error">{error}</Alert>
      ) : empty ? (
        <Typography color="text.secondary">{empty}</Typography>
      ) : (
        <List dense aria-labelledby={titleId} sx={{ maxHeight: SUMMARY_LIST_MAX_HEIGHT, overflowY: 'auto' }}>
          {children}
        </List>
      )}
    </Paper>
  );
}
