import Box from '@mui/material/Box';
import type { ReactNode } from 'react';

const BACKGROUND = { error: '#fdeded', warning: '#fff4e5', info: '#e5f6fd' } as const;

interface PlainBannerProps {
  tone: keyof typeof BACKGROUND;
  /** `alert` for what needs attention now (offline), `status` otherwise. */
  role?: 'alert' | 'status';
  /** The banner's accessible name, when its text alone does not say what it is. */
  label?: string;
  /** Shown over the page (connectivity banners): a shadow and no margin below. */
  floating?: boolean;
  children: ReactNode;
}

/**
 * The dashboard's one banner, in plain boxes rather than MUI's Alert: banners are on every
 * signed-in first page (the 350 kB budget). Staff, platform-news and connectivity banners
 * all use it.
 */
export function PlainBanner({ tone, role = 'status', label, floating = false, children }: PlainBannerProps) {
  return (
    <Box
      role={role}
      aria-label={label}
      sx={{
        display: 'flex',
        alignItems: 'center',
        flexWrap: 'wrap',
        gap: 2,
        mb: floating ? 0 : 2,
        px: 2,
        py: 1,
        borderRadius: 1,
        borderLeft: 4,
        borderColor: `${tone}.main`,
        bgcolor: BACKGROUND[tone],
        color: 'text.primary',
        ...(floating ? { boxShadow: 3 } : {}),
      }}
    >
      {children}
    </Box>
  );
}
