import { FLEET_GRID_CARD_MIN_WIDTH_PX, type ApplicationClass } from '@flotilla/model';
import { Box, Link, Paper, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { ApplicationRow } from '../api/get-applications';
import { DeviceStatusSummary } from './device-status-summary';
import { paths } from '../../../lib/paths';

/** The grid lens: one card per application, at least 370 px wide (spec 2 §9). */
export function ApplicationsGrid({ appClass, rows }: { appClass: ApplicationClass; rows: ApplicationRow[] }) {
  const { t } = useTranslation();
  return (
    <Box
      component="ul"
      aria-label={t(`fleets.title_${appClass}`)}
      sx={{
        display: 'grid',
        gridTemplateColumns: `repeat(auto-fill, minmax(min(100%, ${FLEET_GRID_CARD_MIN_WIDTH_PX}px), 1fr))`,
        gap: 2,
        listStyle: 'none',
        m: 0,
        p: 0,
      }}
    >
      {rows.map((a) => (
        <Paper key={a.id} component="li" variant="outlined" sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 1 }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            <Link component={RouterLink} to={paths.application(appClass, a.id)}>
              {a.app_name}
            </Link>
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {[a.organization[0]?.name, a.is_for__device_type[0]?.name].filter(Boolean).join(' · ')}
          </Typography>
          <DeviceStatusSummary devices={a.owns__device} />
        </Paper>
      ))}
    </Box>
  );
}
