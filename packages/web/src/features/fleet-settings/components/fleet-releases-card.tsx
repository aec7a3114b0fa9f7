import { Link, List, ListItem, ListItemText, Paper, Skeleton, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useFleetReleases } from '../api/get-fleet-releases';
import { shortCommit } from '../fleet-settings-rules';
import { DateText } from './details-list';

const LISTED_STATUSES = ['success', 'running'] as const;

/** The summary's releases card: releases with status success or running, newest first (spec 2 §2). */
export function FleetReleasesCard({ fleetId, base }: { fleetId: number; base: string }) {
  const { t, i18n } = useTranslation();
  const releases = useFleetReleases(fleetId, LISTED_STATUSES);
  const title = t('fleet_summary.releases');
  return (
    <Paper variant="outlined" component="section" aria-label={title} sx={{ p: 2, flex: 1, minWidth: 300 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {releases.isError && <Typography color="error">{t('fleet_summary.releases_failed')}</Typography>}
      {releases.isPending && <Skeleton />}
      {releases.data?.length === 0 && <Typography color="text.secondary">{t('fleet_summary.releases_empty')}</Typography>}
      {releases.data && releases.data.length > 0 && (
        <List dense disablePadding aria-label={title} sx={{ maxHeight: 300, overflow: 'auto' }}>
          {releases.data.map((r) => (
            <ListItem key={r.id} disableGutters>
              <ListItemText
                primary={
                  <Link component={RouterLink} to={`${base}/releases/${r.id}`}>
                    {t('fleet_summary.release_label', { version: r.raw_version, commit: shortCommit(r.commit) })}
                  </Link>
                }
                secondary={
                  <>
                    {t(`fleet_summary.release_status_${r.status}`, { defaultValue: r.status })} · <DateText value={r.created_at} language={i18n.language} time />
                  </>
                }
              />
            </ListItem>
          ))}
        </List>
      )}
    </Paper>
  );
}
