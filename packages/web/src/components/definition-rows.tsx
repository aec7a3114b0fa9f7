import { Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** Label/value rows as a <dl>, the layout of the summary and details cards. */
export function DefinitionRows({ rows }: { rows: readonly (readonly [string, ReactNode])[] }) {
  return (
    <Stack component="dl" spacing={1} sx={{ m: 0 }}>
      {rows.map(([label, value]) => (
        <Stack key={label} direction="row" spacing={2}>
          <Typography component="dt" variant="body2" color="text.secondary" sx={{ width: 160, flexShrink: 0 }}>
            {label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-word' }}>
            {value}
          </Typography>
        </Stack>
      ))}
    </Stack>
  );
}
