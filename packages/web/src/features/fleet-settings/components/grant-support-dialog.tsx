import { useTranslation } from 'react-i18next';
import { GrantSupportDialog as SharedGrantSupportDialog } from '../../../components/grant-support-dialog';

/** Spec 2 §5, §9: a fleet's support access until a date-time in the future, 5 days ahead by default. */
export function GrantSupportDialog({ onGrant, onClose }: { onGrant: (until: Date) => Promise<void>; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <SharedGrantSupportDialog
      inputId="support-access-until"
      labels={{
        title: t('fleet_settings.support_grant_title'),
        submit: t('fleet_settings.support_grant'),
        cancel: t('fleet_settings.cancel'),
        until: t('fleet_settings.support_until'),
        required: t('fleet_settings.support_date_required'),
        future: t('fleet_settings.support_date_future'),
      }}
      onGrant={onGrant}
      onClose={onClose}
    />
  );
}
