import { Button, Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { NewPasswordFields } from '../../../components/new-password-fields';
import { matchingConfirmation, newPassword } from '../../../lib/form-rules';
import { useMutationForm } from '../../../lib/use-mutation-form';
import { passwordResetErrorText, useResetPassword } from '../api/password-reset';
import '../i18n';

/**
 * /user/reset-password/{loginCode} (spec 1 §2, §5): a new password of 8 to 64 characters,
 * confirmed. A refused code shows the server's message (invalid or expired, spec 1 §8).
 */
export function ResetPasswordForm({ loginCode, onDone }: { loginCode: string; onDone: () => void }) {
  const { t } = useTranslation();
  const reset = useResetPassword();
  const schema = z
    .object({
      password: newPassword(),
      confirmPassword: z.string(),
    })
    .check(matchingConfirmation(t('auth.passwords_do_not_match')));
  const { form, onSubmit, submitting } = useMutationForm({
    schema,
    mode: 'onTouched',
    defaultValues: { password: '', confirmPassword: '' },
    submit: ({ password }) =>
      reset.mutateAsync({ resetCode: loginCode, password }).catch((err: unknown) => {
        throw passwordResetErrorText(err, t);
      }),
    success: t('passwordReset.reset_done'),
    onSuccess: onDone,
  });
  const { register, formState } = form;

  return (
    <Stack component="form" noValidate spacing={2} onSubmit={onSubmit}>
      <NewPasswordFields
        ids={{ password: 'reset-new-password', confirmation: 'reset-confirm-password' }}
        labels={{ password: t('passwordReset.new_password'), confirmation: t('passwordReset.confirm_new_password') }}
        password={register('password')}
        confirmation={register('confirmPassword')}
        errors={{ password: formState.errors.password?.message, confirmation: formState.errors.confirmPassword?.message }}
        autoFocus
      />
      <Button type="submit" variant="contained" size="large" loading={submitting}>
        {t('passwordReset.save_password')}
      </Button>
    </Stack>
  );
}
