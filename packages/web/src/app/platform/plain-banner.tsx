import { Box } from '@mui/material';
import type { ReactNode } from 'react';

/** A banner in plain boxes, not MUI's Alert: it is on every first page (350 kB budget). */
export function PlainBanner({ tone, role, children }: { tone: 'error' | 'info'; role: 'alert' | 'status'; children: ReactNode }) {
  return (
    <Box
      role={role}
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 2,
        px: 2,
        py: 1,
        borderRadius: 1,
        borderLeft: 4,
        borderColor: `${tone}.main`,
        bgcolor: tone === 'error' ? '#fdeded' : '#e5f6fd',
        color: 'text.primary',
        boxShadow: 3,
      }}
    >
      {children}
    </Box>
  );
}
