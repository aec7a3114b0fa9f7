import { Paper, Stack, Typography } from '@mui/material';
import { useId, type ReactNode } from 'react';

/** One card of the billing page: a titled section (its heading names it for assistive technology). */
export function BillingCard({ id, title, actions, children }: { id?: string; title: string; actions?: ReactNode; children: ReactNode }) {
  const headingId = useId();
  return (
    <Paper component="section" variant="outlined" id={id} aria-labelledby={headingId} sx={{ p: 2 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1.5, flexWrap: 'wrap' }}>
        <Typography id={headingId} variant="h6" component="h2">
          {title}
        </Typography>
        {actions && (
          <Stack direction="row" spacing={1}>
            {actions}
          </Stack>
        )}
      </Stack>
      {children}
    </Paper>
  );
}

/** A card's loading or error line (spec 3 §8 messages). */
export function CardStatus({ children, error }: { children: ReactNode; error?: boolean }) {
  return (
    <Typography color={error ? 'error' : 'text.secondary'} role={error ? 'alert' : undefined}>
      {children}
    </Typography>
  );
}
