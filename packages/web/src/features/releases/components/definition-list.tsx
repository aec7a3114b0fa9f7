import { Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** Label/value rows as a <dl>, as the fleet details card lays them out. */
export function DefinitionList({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <Stack component="dl" spacing={1} sx={{ m: 0 }}>
      {rows.map(([label, value]) => (
        <Stack key={label} direction="row" spacing={2}>
          <Typography component="dt" variant="body2" color="text.secondary" sx={{ width: 140, flexShrink: 0 }}>
            {label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
            {value}
          </Typography>
        </Stack>
      ))}
    </Stack>
  );
}
