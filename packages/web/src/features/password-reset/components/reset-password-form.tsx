import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@flotilla/model';
import { Button, Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { TextInput } from '../../../components/form-fields';
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
      password: z
        .string()
        .check(
          z.minLength(PASSWORD_MIN_LENGTH, t('auth.password_too_short', { min: PASSWORD_MIN_LENGTH })),
          z.maxLength(PASSWORD_MAX_LENGTH, t('auth.password_too_long')),
        ),
      confirmPassword: z.string(),
    })
    .check(z.refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], error: t('auth.passwords_do_not_match') }));
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
      <TextInput
        {...register('password')}
        id="reset-new-password"
        type="password"
        label={t('passwordReset.new_password')}
        autoComplete="new-password"
        autoFocus
        error={formState.errors.password?.message}
      />
      <TextInput
        {...register('confirmPassword')}
        id="reset-confirm-password"
        type="password"
        label={t('passwordReset.confirm_new_password')}
        autoComplete="new-password"
        error={formState.errors.confirmPassword?.message}
      />
      <Button type="submit" variant="contained" size="large" loading={submitting}>
        {t('passwordReset.save_password')}
      </Button>
    </Stack>
  );
}
