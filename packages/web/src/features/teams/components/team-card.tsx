import { Alert, List, ListItem, ListItemText, Paper, Skeleton, Typography } from '@mui/material';
import { useId } from 'react';

/** Spec 1 §9: summary lists are capped at 300 px and scroll. */
const MAX_HEIGHT = 300;

interface Props {
  title: string;
  loading?: boolean;
  error?: string | undefined;
  empty: string;
  items: { key: string | number; primary: string }[];
}

/** A titled card with one scrolling list (team members). */
export function TeamCard({ title, loading, error, empty, items }: Props) {
  const titleId = useId();
  return (
    <Paper variant="outlined" component="section" aria-labelledby={titleId} sx={{ p: 2, flex: 1, minWidth: 0 }}>
      <Typography id={titleId} variant="h6" component="h2" gutterBottom>
        {title}
      </Typography>
      {loading ? (
        <Skeleton />
      ) : error ? (
        <Alert severity="error">{error}</Alert>
      ) : items.length === 0 ? (
        <Typography color="text.secondary">{empty}</Typography>
      ) : (
        <List dense aria-labelledby={titleId} sx={{ maxHeight: MAX_HEIGHT, overflowY: 'auto' }}>
          {items.map((i) => (
            <ListItem key={i.key} divider>
              <ListItemText primary={i.primary} />
            </ListItem>
          ))}
        </List>
      )}
    </Paper>
  );
}
