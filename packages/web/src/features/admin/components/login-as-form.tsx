import { Button, Stack, Typography } from '@mui/material';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { TextInput } from '../../../components/form-fields';
import { errorMessage } from '../../../lib/errors';
import { requiredText } from '../../../lib/form-rules';
import { useMutationForm } from '../../../lib/use-mutation-form';

/** "Log in as a user": a username, then PATCH /login_ (`onLogin` does the rest); a refusal is said under the form. */
export function LoginAsForm({ onLogin }: { onLogin: (username: string) => Promise<unknown> }) {
  const { t } = useTranslation();
  const id = useId();
  const { form, onSubmit, submitting, fieldError } = useMutationForm({
    schema: z.object({ username: requiredText(t('admin.login_as.username_required')) }),
    defaultValues: { username: '' },
    submit: ({ username }) => onLogin(username),
    onError: (err) => {
      form.setError('root.server', { message: errorMessage(err, t) });
      return true;
    },
  });
  const error = form.formState.errors.root?.server?.message;

  return (
    <Stack component="form" noValidate onSubmit={onSubmit} spacing={2} sx={{ maxWidth: 420 }}>
      <Typography color="text.secondary">{t('admin.login_as.description')}</Typography>
      <TextInput {...form.register('username')} id={id} label={t('admin.login_as.username')} autoComplete="off" error={fieldError('username')} />
      {!!error && (
        <Typography role="alert" color="error">
          {error}
        </Typography>
      )}
      <Button type="submit" variant="contained" loading={submitting} sx={{ alignSelf: 'flex-start' }}>
        {t('admin.login_as.submit')}
      </Button>
    </Stack>
  );
}
