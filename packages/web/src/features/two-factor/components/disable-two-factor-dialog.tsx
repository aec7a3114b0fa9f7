import { Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { FormDialog } from '../../../components/form-dialog';
import { TextInput } from '../../../components/form-fields';
import { useMutationForm } from '../../../lib/use-mutation-form';
import { useDisableTwoFactor } from '../api/two-factor';

/** Enabled → disabled needs the password (spec 1 §4, §5). */
export function DisableTwoFactorDialog({ onClose, onDisabled }: { onClose: () => void; onDisabled: () => void }) {
  const { t } = useTranslation();
  const disable = useDisableTwoFactor();
  const { form, ...dialog } = useMutationForm({
    schema: z.object({ password: z.string().check(z.minLength(1, t('twoFactor.password_required'))) }),
    defaultValues: { password: '' },
    submit: ({ password }) => disable.mutateAsync(password),
    success: t('twoFactor.disabled_success'),
    onSuccess: onDisabled,
  });

  return (
    <FormDialog form={dialog} title={t('twoFactor.disable_title')} submitLabel={t('twoFactor.disable_submit')} onClose={onClose}>
      <Typography variant="body2">{t('twoFactor.disable_body')}</Typography>
      <TextInput
        {...form.register('password')}
        id="two-factor-disable-password"
        type="password"
        label={t('twoFactor.password')}
        autoComplete="current-password"
        autoFocus
        error={dialog.fieldError('password')}
      />
    </FormDialog>
  );
}
