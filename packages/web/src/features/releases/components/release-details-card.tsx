import { Button, Link, Paper, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { PermissionTooltip } from '../../../components/permission-tooltip';
import type { ReleaseDetails } from '../api/get-release';
import { buildDuration, completion, shownStatus } from '../release-view';
import { formatTimestamp } from './format';
import { DefinitionList } from './definition-list';
import { ReleaseStatusChip } from './release-status-chip';
import { paths } from '../../../lib/paths';

interface Props {
  release: ReleaseDetails;
  now: number;
  canUpdate: boolean;
  onEditVersion: () => void;
}

/** The release summary's details (spec 2 §2): version, commit, status, source, creator, times, duration. */
export function ReleaseDetailsCard({ release, now, canUpdate, onEditVersion }: Props) {
  const { t, i18n } = useTranslation();
  const status = shownStatus(release, now);
  const done = completion(status, release.end_timestamp);
  const time = (value: string | null) => (value ? <time dateTime={value}>{formatTimestamp(value, i18n.language)}</time> : t('releases.none'));
  const completed =
    done.kind === 'failed' ? t('releases.build_failed') : done.kind === 'cancelled' ? t('releases.build_cancelled') : done.kind === 'at' ? time(done.at) : t('releases.in_progress');
  const rows: [string, ReactNode][] = [
    [
      t('releases.version'),
      <Stack key="version" direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <span>{release.raw_version}</span>
        <PermissionTooltip allowed={canUpdate}>
          <Button size="small" disabled={!canUpdate} onClick={onEditVersion}>
            {t('releases.edit_version')}
          </Button>
        </PermissionTooltip>
      </Stack>,
    ],
    [t('releases.commit'), <code key="commit">{release.commit}</code>],
    [t('releases.status'), <ReleaseStatusChip key="status" status={status} />],
    [t('releases.source'), release.source],
    [t('releases.creator'), release.creator ?? t('releases.none')],
    [t('releases.created'), time(release.created_at)],
    [t('releases.started'), time(release.start_timestamp)],
    [t('releases.completed'), completed],
    [t('releases.duration'), buildDuration(release.start_timestamp, release.end_timestamp) ?? t('releases.none')],
  ];
  return (
    <Paper variant="outlined" component="section" aria-label={t('releases.details')} sx={{ p: 2 }}>
      <Stack direction="row" sx={{ mb: 1, alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
        <Typography variant="h6" component="h2">
          {t('releases.details')}
        </Typography>
        {/* Spec 2 §2: a device list link built from the release with the filter is_running__release. */}
        <Link component={RouterLink} to={paths.fleetDevices(release.fleetId, { is_running__release: release.id })}>
          {t('releases.devices_running')}
        </Link>
      </Stack>
      <DefinitionList rows={rows} />
    </Paper>
  );
}
