import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** One setting (fleet or device settings pages): its name and explanation on the left, its controls on the right. */
export function SettingRow({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <Stack
      component="section"
      aria-label={title}
      direction={{ xs: 'column', md: 'row' }}
      spacing={2}
      sx={{ py: 2, borderBottom: 1, borderColor: 'divider', alignItems: { md: 'flex-start' } }}
    >
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
        {description ? (
          <Typography variant="body2" color="text.secondary" component="div">
            {description}
          </Typography>
        ) : null}
      </Box>
      <Stack spacing={1} sx={{ flex: 1, minWidth: 0, alignItems: 'flex-start' }}>
        {children}
      </Stack>
    </Stack>
  );
}
