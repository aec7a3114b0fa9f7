import { zodResolver } from '@hookform/resolvers/zod';
import { isValidEmail } from '@flotilla/model';
import { Button, Stack, Typography } from '@mui/material';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { useCaptcha } from '../../../components/captcha';
import { TextInput } from '../../../components/form-fields';
import { useNotify } from '../../../lib/notify';
import { passwordResetErrorText, useRequestPasswordReset } from '../api/password-reset';
import '../i18n';

/** /password-reset (spec 1 §2): asks for a reset link; the server answers the same for any address. */
export function RequestResetForm({ defaultEmail = '', onSent }: { defaultEmail?: string; onSent: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const request = useRequestPasswordReset();
  const captcha = useCaptcha();
  const schema = z.object({ email: z.string().check(z.trim(), z.refine(isValidEmail, t('auth.email_invalid'))) });
  const { register, handleSubmit, formState } = useForm<z.infer<typeof schema>>({
    resolver: zodResolver(schema),
    mode: 'onTouched',
    defaultValues: { email: defaultEmail },
  });

  const onSubmit = handleSubmit(async ({ email }) => {
    const captchaResponse = captcha.response();
    if (captchaResponse === null) {
      notify.error(t('passwordReset.captcha_required'));
      return;
    }
    try {
      await request.mutateAsync({ email, captchaResponse });
      onSent();
    } catch (err) {
      captcha.reset();
      notify.error(passwordResetErrorText(err, t));
    }
  });

  return (
    <Stack component="form" noValidate spacing={2} onSubmit={onSubmit}>
      <Typography color="text.secondary">{t('passwordReset.request_intro')}</Typography>
      <TextInput {...register('email')} id="reset-email" type="email" label={t('auth.email')} autoComplete="email" autoFocus error={formState.errors.email?.message} />
      {captcha.element}
      <Button type="submit" variant="contained" size="large" loading={formState.isSubmitting}>
        {t('passwordReset.send_link')}
      </Button>
    </Stack>
  );
}
