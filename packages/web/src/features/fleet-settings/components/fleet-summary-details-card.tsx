import { Link } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { FleetSettings } from '../api/get-fleet-settings';
import { shortCommit, supportAccessState } from '../fleet-settings-rules';
import { DateText, DetailsList } from './details-list';
import { paths } from '../../../lib/paths';

/**
 * The summary's details card (spec 2 §2, §3): name, slug, uuid, organization, device type,
 * class, created, target release, public, repository URL and support access.
 */
export function FleetSummaryDetailsCard({ fleet, now = new Date() }: { fleet: FleetSettings; now?: Date }) {
  const { t, i18n } = useTranslation();
  const support = supportAccessState(fleet.is_accessible_by_support_until__date, now);
  const until = fleet.is_accessible_by_support_until__date;
  const target = fleet.targetRelease;
  const rows: [string, ReactNode][] = [
    [t('fleet.name'), fleet.app_name],
    [t('fleet.slug'), fleet.slug],
    [t('fleet_summary.uuid'), fleet.uuid],
    [
      t('fleet.organization'),
      <Link key="org" component={RouterLink} to={paths.organization(fleet.organization.id)}>
        {fleet.organization.name}
      </Link>,
    ],
    [t('fleet.device_type'), fleet.deviceType?.name ?? '—'],
    [t('fleet.class'), t(`fleet.class_${fleet.is_of__class}`)],
    [t('fleet.created'), <DateText key="created" value={fleet.created_at} language={i18n.language} />],
    [
      t('fleet_summary.target_release'),
      fleet.should_track_latest_release || !target
        ? t('fleet_summary.tracking_latest')
        : t('fleet_summary.pinned_to', { version: target.raw_version, commit: shortCommit(target.commit) }),
    ],
    [t('fleet_summary.public'), fleet.is_public ? t('fleet_summary.yes') : t('fleet_summary.no')],
    [t('fleet_summary.repository_url'), fleet.is_stored_at__repository_url || '—'],
    [
      t('fleet_summary.support_access'),
      <span key="support">
        {t(`fleet_summary.support_${support}`)}
        {until && support !== 'off' && (
          <>
            {' '}
            (<DateText value={until} language={i18n.language} time />)
          </>
        )}
      </span>,
    ],
  ];
  return <DetailsList title={t('fleet.details')} rows={rows} />;
}
