import { FREE_DEVICE_ALLOWANCE } from '@flotilla/model';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../lib/paths';
import '../i18n';

interface Props {
  organizationId: number;
  canAccessBilling: boolean;
  deviceCount: number;
  onClose: () => void;
}

/**
 * Spec 3 §8 frozen-devices dialog: free plan limits are exceeded; reduce the devices below the
 * free allowance or upgrade. The upgrade button only for users with billing access (spec 3 §6);
 * others are told to contact their administrator.
 */
export default function FrozenDevicesDialog({ organizationId, canAccessBilling, deviceCount, onClose }: Props) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{t('billing_banners.frozen_devices_title')}</DialogTitle>
      <DialogContent>
        <DialogContentText gutterBottom>
          {t('billing_banners.frozen_devices_text', { included: FREE_DEVICE_ALLOWANCE, count: deviceCount, frozen: Math.max(0, deviceCount - FREE_DEVICE_ALLOWANCE) })}
        </DialogContentText>
        <DialogContentText>{t(canAccessBilling ? 'billing_banners.frozen_devices_reduce' : 'billing_banners.frozen_devices_contact')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
        {canAccessBilling && (
          <Button variant="contained" component={RouterLink} to={`${paths.organization(organizationId, 'billing')}#billing-plans`}>
            {t('billing_banners.upgrade')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
