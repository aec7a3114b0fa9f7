import type { DeviceOverallStatus } from '@flotilla/model';
import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';

const COLOUR: Record<DeviceOverallStatus, 'success' | 'warning' | 'error' | 'info' | 'default'> = {
  operational: 'success',
  updating: 'info',
  configuring: 'info',
  'post-provisioning': 'info',
  'reduced-functionality': 'warning',
  disconnected: 'error',
  inactive: 'default',
};

/**
 * MUI's info blue (#0288d1) is under 4.5:1 on white: the outlined Configuring/Updating chips'
 * small text failed axe's colour contrast. Its dark shade (#01579b) passes.
 */
const INFO_SX = { color: 'info.dark', borderColor: 'info.dark' } as const;

/** A device's overall status (spec 2 §4) as a chip; the progress shows while it applies. */
export function DeviceStatusChip({ status, progress }: { status: DeviceOverallStatus | null; progress?: number | null }) {
  const { t } = useTranslation();
  if (status === null) return <>{t('devices.none')}</>;
  const label = t(`devices.status_${status}`) + (progress !== null && progress !== undefined && status === 'updating' ? ` ${progress}%` : '');
  return <Chip size="small" variant="outlined" color={COLOUR[status]} label={label} sx={COLOUR[status] === 'info' ? INFO_SX : undefined} />;
}
