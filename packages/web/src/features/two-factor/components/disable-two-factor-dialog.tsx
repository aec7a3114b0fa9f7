import { Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog';
import { TextInput } from '../../../components/form-fields';
import { useNotify } from '../../../lib/notify';
import { useDisableTwoFactor } from '../api/two-factor';

/** Enabled → disabled needs the password (spec 1 §4, §5). */
export function DisableTwoFactorDialog({ onClose, onDisabled }: { onClose: () => void; onDisabled: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const disable = useDisableTwoFactor();
  const [password, setPassword] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!password) {
      setFieldError(t('twoFactor.password_required'));
      return;
    }
    setFieldError(undefined);
    disable.mutate(password, { onSuccess: onDisabled, onError: notify.error });
  };

  return (
    <FormDialog
      open
      title={t('twoFactor.disable_title')}
      submitLabel={t('twoFactor.disable_submit')}
      cancelLabel={t('twoFactor.cancel')}
      submitting={disable.isPending}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <Typography variant="body2">{t('twoFactor.disable_body')}</Typography>
      <TextInput
        id="two-factor-disable-password"
        type="password"
        label={t('twoFactor.password')}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        autoComplete="current-password"
        autoFocus
        error={fieldError}
      />
    </FormDialog>
  );
}
