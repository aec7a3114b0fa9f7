import { isValidEmail } from '@flotilla/model';
import { Button, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { useCaptcha } from '../../../components/captcha';
import { TextInput } from '../../../components/form-fields';
import { useMutationForm } from '../../../lib/use-mutation-form';
import { passwordResetErrorText, useRequestPasswordReset } from '../api/password-reset';
import '../i18n';

/** /password-reset (spec 1 §2): asks for a reset link; the server answers the same for any address. */
export function RequestResetForm({ defaultEmail = '', onSent }: { defaultEmail?: string; onSent: () => void }) {
  const { t } = useTranslation();
  const request = useRequestPasswordReset();
  const captcha = useCaptcha();
  const schema = z.object({ email: z.string().check(z.trim(), z.refine(isValidEmail, t('auth.email_invalid'))) });
  const { form, onSubmit, submitting, fieldError } = useMutationForm({
    schema,
    mode: 'onTouched',
    defaultValues: { email: defaultEmail },
    submit: async ({ email }) => {
      const captchaResponse = captcha.response();
      if (captchaResponse === null) throw t('passwordReset.captcha_required');
      await request.mutateAsync({ email, captchaResponse }).catch((err: unknown) => {
        captcha.reset();
        throw passwordResetErrorText(err, t);
      });
    },
    onSuccess: onSent,
  });

  return (
    <Stack component="form" noValidate spacing={2} onSubmit={onSubmit}>
      <Typography color="text.secondary">{t('passwordReset.request_intro')}</Typography>
      <TextInput {...form.register('email')} id="reset-email" type="email" label={t('auth.email')} autoComplete="email" autoFocus error={fieldError('email')} />
      {captcha.element}
      <Button type="submit" variant="contained" size="large" loading={submitting}>
        {t('passwordReset.send_link')}
      </Button>
    </Stack>
  );
}
