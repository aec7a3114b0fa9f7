import { Button, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { z } from 'zod/mini';
import { TextInput } from '../../../components/form-fields';
import { errorMessage } from '../../../lib/errors';
import { useMutationForm } from '../../../lib/use-mutation-form';
import '../saml-i18n';

/** /saml: the SSO identifier (required), then /saml/{ssoIdentifier}. */
export function SamlIdentifierForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const schema = z.object({ identifier: z.string().check(z.trim(), z.minLength(1, t('saml.identifier_required'))) });
  const { form, onSubmit, submitting } = useMutationForm({
    schema,
    defaultValues: { identifier: '' },
    submit: async ({ identifier }) => navigate(`/saml/${encodeURIComponent(identifier)}`),
  });
  return (
    <Stack component="form" noValidate spacing={2} onSubmit={onSubmit}>
      <Typography variant="body2" color="text.secondary">
        {t('saml.intro')}
      </Typography>
      <TextInput
        {...form.register('identifier')}
        id="saml-identifier"
        label={t('saml.identifier')}
        required
        autoFocus
        autoComplete="organization"
        error={form.formState.errors.identifier?.message}
      />
      <Button type="submit" variant="contained" size="large" loading={submitting}>
        {t('saml.continue')}
      </Button>
    </Stack>
  );
}

/** The merge callback's form: the existing account's password (its email is fixed). */
export function SamlMergeForm({ email, onToken }: { email: string; onToken: (password: string) => Promise<unknown> }) {
  const { t } = useTranslation();
  const schema = z.object({ password: z.string().check(z.minLength(1, t('auth.password_required'))) });
  const { form, onSubmit, submitting } = useMutationForm({
    schema,
    defaultValues: { password: '' },
    submit: ({ password }) => onToken(password),
    onError: (err) => {
      form.setError('root.server', { message: errorMessage(err, t) });
      return true;
    },
  });
  const serverError = form.formState.errors.root?.server?.message;
  return (
    <Stack
      component="form"
      noValidate
      spacing={2}
      onSubmit={(e) => {
        form.clearErrors('root.server');
        onSubmit(e);
      }}
    >
      <Typography variant="body2">{t('saml.merge_intro', { email })}</Typography>
      <TextInput id="saml-merge-email" label={t('auth.email')} value={email} readOnly autoComplete="username" />
      <TextInput
        {...form.register('password')}
        id="saml-merge-password"
        type="password"
        label={t('auth.password')}
        autoComplete="current-password"
        autoFocus
        error={form.formState.errors.password?.message ?? serverError}
      />
      <Button type="submit" variant="contained" size="large" loading={submitting}>
        {t('saml.merge_submit')}
      </Button>
    </Stack>
  );
}
