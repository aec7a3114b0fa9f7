import { useTranslation } from 'react-i18next';
import { PasswordDialog } from '../../../components/password-dialog';
import { reverify } from '../api/session';
import '../i18n';

/** The password dialog of `ensureRecentAuth` (spec 1 §4): a wrong password is said under the field. */
export function ReverifyForm({ onVerified, onCancel }: { onVerified: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  return (
    <PasswordDialog
      title={t('account.reverify.title')}
      body={t('account.reverify.body')}
      submitLabel={t('account.reverify.verify')}
      label={t('account.reverify.password')}
      inputId="reverify-password"
      requiredMessage={t('account.reverify.password_required')}
      onSubmit={reverify}
      onSuccess={onVerified}
      errorUnderField
      maxWidth="xs"
      onClose={onCancel}
    />
  );
}
