import { Link, Paper, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { FleetDetails } from '../api/get-fleet';

/** The summary page's details card (spec 2 §2): name, slug, organization, device type, class, created. */
export function FleetDetailsCard({ fleet }: { fleet: FleetDetails }) {
  const { t, i18n } = useTranslation();
  const created = new Date(fleet.created_at);
  const rows: [string, ReactNode][] = [
    [t('fleet.name'), fleet.app_name],
    [t('fleet.slug'), fleet.slug],
    [
      t('fleet.organization'),
      <Link key="org" component={RouterLink} to={`/orgs/${fleet.organization.id}`}>
        {fleet.organization.name}
      </Link>,
    ],
    [t('fleet.device_type'), fleet.deviceType?.name ?? '—'],
    [t('fleet.class'), t(`fleet.class_${fleet.is_of__class}`)],
    [
      t('fleet.created'),
      <time key="created" dateTime={fleet.created_at}>
        {Number.isNaN(created.getTime()) ? fleet.created_at : new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(created)}
      </time>,
    ],
  ];
  return (
    <Paper variant="outlined" component="section" aria-label={t('fleet.details')} sx={{ p: 2, maxWidth: 560 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('fleet.details')}
      </Typography>
      <Stack component="dl" spacing={1} sx={{ m: 0 }}>
        {rows.map(([label, value]) => (
          <Stack key={label} direction="row" spacing={2}>
            <Typography component="dt" variant="body2" color="text.secondary" sx={{ width: 140, flexShrink: 0 }}>
              {label}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0 }}>
              {value}
            </Typography>
          </Stack>
        ))}
      </Stack>
    </Paper>
  );
}
