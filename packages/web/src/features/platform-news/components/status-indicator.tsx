import { Box, Link } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useInstallConfig } from '../../../lib/dashboard-config';
import '../i18n';
import { useNews, type StatusSummary } from '../news-store';

const COLOURS: Record<StatusSummary['indicator'], string> = {
  none: '#2e7d32',
  minor: '#ed6c02',
  major: '#d32f2f',
  critical: '#b71c1c',
  maintenance: '#0288d1',
  unknown: '#9e9e9e',
};

/**
 * The header's status dot (spec 3 §4): its colour and accessible label say the status page's
 * indicator ('Status unavailable' when the feed cannot be read); it links to the status page
 * when one is configured. Nothing until the first check has answered, or without a feed.
 */
export default function StatusIndicator() {
  const { t } = useTranslation();
  const { links } = useInstallConfig();
  const status = useNews((s) => s.status);
  if (!status) return null;
  const label = t('platform_news.service_status', { status: t(`platform_news.status_${status.indicator}`) });
  const dot = (
    <Box
      component="span"
      aria-hidden
      sx={{ display: 'inline-block', width: 12, height: 12, borderRadius: '50%', bgcolor: COLOURS[status.indicator], border: '2px solid #fff' }}
    />
  );
  const sx = { display: 'inline-flex', alignItems: 'center', justifyContent: 'center', width: 40, height: 40, mr: 0.5 } as const;
  return links.statusPageUrl ? (
    <Link href={links.statusPageUrl} target="_blank" rel="noopener noreferrer" aria-label={label} title={label} color="inherit" sx={sx} data-indicator={status.indicator}>
      {dot}
    </Link>
  ) : (
    <Box role="img" aria-label={label} title={label} sx={sx} data-indicator={status.indicator}>
      {dot}
    </Box>
  );
}
