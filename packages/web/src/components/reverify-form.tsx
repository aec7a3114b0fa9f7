import { useTranslation } from 'react-i18next';
import { PasswordDialog } from './password-dialog';
import { reverify } from '../lib/reverify';
import './reverify-i18n';

/** The password dialog of `ensureRecentAuth` (spec 1 §4): a wrong password is said under the field. */
export function ReverifyForm({ onVerified, onCancel }: { onVerified: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  return (
    <PasswordDialog
      title={t('reverify.title')}
      body={t('reverify.body')}
      submitLabel={t('reverify.verify')}
      label={t('reverify.password')}
      inputId="reverify-password"
      requiredMessage={t('reverify.password_required')}
      onSubmit={reverify}
      onSuccess={onVerified}
      errorUnderField
      maxWidth="xs"
      onClose={onCancel}
    />
  );
}
