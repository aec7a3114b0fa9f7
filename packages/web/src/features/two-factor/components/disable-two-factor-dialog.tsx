import { useTranslation } from 'react-i18next';
import { PasswordDialog } from '../../../components/password-dialog';
import { useDisableTwoFactor } from '../api/two-factor';

/** Enabled → disabled needs the password (spec 1 §4, §5). */
export function DisableTwoFactorDialog({ onClose, onDisabled }: { onClose: () => void; onDisabled: () => void }) {
  const { t } = useTranslation();
  const disable = useDisableTwoFactor();
  return (
    <PasswordDialog
      title={t('twoFactor.disable_title')}
      body={t('twoFactor.disable_body')}
      submitLabel={t('twoFactor.disable_submit')}
      label={t('twoFactor.password')}
      inputId="two-factor-disable-password"
      requiredMessage={t('twoFactor.password_required')}
      onSubmit={(password) => disable.mutateAsync(password)}
      success={t('twoFactor.disabled_success')}
      onSuccess={onDisabled}
      onClose={onClose}
    />
  );
}
