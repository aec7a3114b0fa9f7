import { DialogContentText } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { FormDialog } from '../../../components/form-dialog';
import { TextInput } from '../../../components/form-fields';
import { errorMessage } from '../../../lib/errors';
import { useMutationForm } from '../../../lib/use-mutation-form';
import { reverify } from '../api/session';
import '../i18n';

/** The password dialog of `ensureRecentAuth` (spec 1 §4): a wrong password is said under the field. */
export function ReverifyForm({ onVerified, onCancel }: { onVerified: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const { form, ...dialog } = useMutationForm({
    schema: z.object({ password: z.string().check(z.minLength(1, t('account.reverify.password_required'))) }),
    defaultValues: { password: '' },
    submit: ({ password }) => reverify(password),
    onSuccess: onVerified,
    onError: (err) => {
      form.setError('password', { message: errorMessage(err, t) });
      return true;
    },
  });

  return (
    <FormDialog form={dialog} title={t('account.reverify.title')} submitLabel={t('account.reverify.verify')} maxWidth="xs" onClose={onCancel}>
      <DialogContentText>{t('account.reverify.body')}</DialogContentText>
      <TextInput
        {...form.register('password')}
        id="reverify-password"
        type="password"
        label={t('account.reverify.password')}
        autoComplete="current-password"
        autoFocus
        error={dialog.fieldError('password')}
      />
    </FormDialog>
  );
}
