import { Button, Stack, Typography } from '@mui/material';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TextInput } from '../../../components/form-fields';
import { errorMessage } from '../../../lib/errors';

interface LoginAsFormProps {
  submitting: boolean;
  error: unknown;
  onSubmit: (username: string) => void;
}

/** "Log in as a user": a username, then PATCH /login_ (the route does the rest). */
export function LoginAsForm({ submitting, error, onSubmit }: LoginAsFormProps) {
  const { t } = useTranslation();
  const id = useId();
  const [username, setUsername] = useState('');
  const [blank, setBlank] = useState(false);

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const name = username.trim();
    setBlank(!name);
    if (name) onSubmit(name);
  };

  return (
    <Stack component="form" noValidate onSubmit={submit} spacing={2} sx={{ maxWidth: 420 }}>
      <Typography color="text.secondary">{t('admin.login_as.description')}</Typography>
      <TextInput
        id={id}
        label={t('admin.login_as.username')}
        value={username}
        autoComplete="off"
        onChange={(e) => setUsername(e.target.value)}
        error={blank ? t('admin.login_as.username_required') : undefined}
      />
      {!!error && (
        <Typography role="alert" color="error">
          {errorMessage(error, t)}
        </Typography>
      )}
      <Button type="submit" variant="contained" loading={submitting} sx={{ alignSelf: 'flex-start' }}>
        {t('admin.login_as.submit')}
      </Button>
    </Stack>
  );
}
