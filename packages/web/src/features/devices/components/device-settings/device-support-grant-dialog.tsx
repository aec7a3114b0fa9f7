import { useTranslation } from 'react-i18next';
import { GrantSupportDialog } from '../../../../components/grant-support-dialog';

/** Spec 2 §5: a device's support access until a date-time in the future, 5 days ahead by default. */
export function DeviceSupportGrantDialog({ onGrant, onClose }: { onGrant: (until: Date) => Promise<void>; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <GrantSupportDialog
      inputId="device-support-until"
      labels={{
        title: t('devices.settings_support_grant_title'),
        submit: t('devices.settings_support_grant'),
        cancel: t('devices.cancel'),
        until: t('devices.settings_support_until'),
        required: t('devices.settings_support_date_required'),
        future: t('devices.settings_support_date_future'),
      }}
      onGrant={onGrant}
      onClose={onClose}
    />
  );
}
