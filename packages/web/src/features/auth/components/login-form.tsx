import { PASSWORD_MAX_LENGTH } from '@flotilla/model';
import { Button, Stack } from '@mui/material';
import { TextInput } from '../../../components/form-fields';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { errorMessage } from '../../../lib/errors';
import { useMutationForm } from '../../../lib/use-mutation-form';
import { useLogin } from '../api/login';

export function LoginForm() {
  const { t } = useTranslation();
  const loginMutation = useLogin();
  // Spec 1 §5: both required; a password over 64 can no longer be used and must be reset.
  const schema = z.object({
    username: z.string().check(z.trim(), z.minLength(1, t('auth.username_required'))),
    password: z.string().check(z.minLength(1, t('auth.password_required')), z.maxLength(PASSWORD_MAX_LENGTH, t('auth.password_too_long'))),
  });
  // A refused sign-in is shown on the form (both fields marked, the message under the
  // password), not as a toast that would outlive it; each new try starts clean. The
  // public-only guard moves the user on once the session is set.
  const { form, onSubmit, submitting } = useMutationForm({
    schema,
    defaultValues: { username: '', password: '' },
    submit: (values) => loginMutation.mutateAsync(values),
    onError: (err) => {
      form.setError('root.server', { message: errorMessage(err, t) });
      return true;
    },
  });
  const { register, formState, clearErrors } = form;
  const serverError = formState.errors.root?.server?.message;

  return (
    <Stack
      component="form"
      noValidate
      spacing={2}
      onSubmit={(e) => {
        clearErrors('root.server');
        onSubmit(e);
      }}
    >
      <TextInput
        {...register('username')}
        id="login-username"
        label={t('auth.email_or_username')}
        autoComplete="username"
        autoFocus
        error={formState.errors.username?.message}
        invalid={!!serverError}
      />
      <TextInput
        {...register('password')}
        id="login-password"
        type="password"
        label={t('auth.password')}
        autoComplete="current-password"
        error={formState.errors.password?.message ?? serverError}
      />
      <Button type="submit" variant="contained" size="large" loading={submitting}>
        {t('auth.sign_in')}
      </Button>
    </Stack>
  );
}
