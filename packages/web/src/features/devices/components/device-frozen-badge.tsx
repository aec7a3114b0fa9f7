import { FREE_DEVICE_ALLOWANCE, type DeviceFrozenReason } from '@flotilla/model';
import Chip from '@mui/material/Chip';
import { Tooltip } from '../../../components/lazy-tooltip';
import { useTranslation } from 'react-i18next';

/**
 * A frozen device (`device.is_frozen`, issue 18) beside its status: the badge says so, its
 * tooltip why and what to do (the billing banners' words). Focusable so keyboard users reach
 * the tooltip; the hint is the badge's accessible description.
 */
export function DeviceFrozenBadge({ reason }: { reason: DeviceFrozenReason | null }) {
  const { t } = useTranslation();
  if (reason === null) return null;
  // A frozen organization's fleet and device pages are closed (the shells redirect with
  // 'organization_frozen'), so only the free allowance needs its own words here.
  const hint = reason === 'organization' ? t('devices.organization_frozen') : t('devices.frozen_hint_free_allowance', { included: FREE_DEVICE_ALLOWANCE });
  return (
    <Tooltip title={hint} describeChild>
      <Chip size="small" color="error" variant="outlined" tabIndex={0} label={t('devices.status_frozen')} data-testid="device-frozen-badge" sx={{ ml: 1 }} />
    </Tooltip>
  );
}
