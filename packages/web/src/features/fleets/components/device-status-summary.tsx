import { Box, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { countDeviceStatuses } from '../device-status-counts';

/**
 * An application's device total and its non-zero overall statuses (spec 2 §4 vocabulary),
 * as a labelled list so a screen reader hears "Devices by status: 2 operational, …".
 */
export function DeviceStatusSummary({ devices }: { devices: readonly { overall_status?: string | null }[] }) {
  const { t } = useTranslation();
  const { total, statuses } = countDeviceStatuses(devices);
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', columnGap: 1.5, rowGap: 0.5 }}>
      <Typography variant="body2" component="span" sx={{ fontWeight: 600 }}>
        {t('fleets.device_count', { count: total })}
      </Typography>
      {statuses.length > 0 && (
        <Box
          component="ul"
          aria-label={t('fleets.devices_by_status')}
          sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, listStyle: 'none', m: 0, p: 0 }}
        >
          {statuses.map(({ status, count }) => (
            <Typography key={status} component="li" variant="body2" color="text.secondary" data-status={status}>
              {t('fleets.status_count', { count, status: t(`fleets.status_${status}`) })}
            </Typography>
          ))}
        </Box>
      )}
    </Box>
  );
}
