import { isValidEmail } from '@flotilla/model';
import { Button, Checkbox, FormControlLabel, Stack } from '@mui/material';
import { TextInput } from '../../../components/form-fields';
import { NewPasswordFields } from '../../../components/new-password-fields';
import { matchingConfirmation, newPassword } from '../../../lib/form-rules';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { useMutationForm } from '../../../lib/use-mutation-form';
import { SignUpNotSignedIn, useRegister } from '../api/register';
import { useCaptcha } from '../../../components/captcha';
import '../signup-i18n';

export function SignupForm({ defaultEmail = '' }: { defaultEmail?: string }) {
  const { t } = useTranslation();
  const registerMutation = useRegister();
  const captcha = useCaptcha();
  // Spec 1 §5: a valid email, a password of 8 to 64 characters, and a matching confirmation.
  const schema = z
    .object({
      email: z.string().check(z.trim(), z.refine(isValidEmail, t('auth.email_invalid'))),
      password: newPassword(),
      confirmPassword: z.string(),
      newsletter: z.boolean(),
    })
    .check(matchingConfirmation(t('auth.passwords_do_not_match')));
  const { form, onSubmit, submitting } = useMutationForm({
    schema,
    mode: 'onTouched',
    defaultValues: { email: defaultEmail, password: '', confirmPassword: '', newsletter: false },
    submit: async ({ email, password, newsletter }) => {
      // Spec 1 §5: a captcha response is required (the dummy when none is configured).
      const captchaResponse = captcha.response();
      if (captchaResponse === null) throw t('signup.captcha_required');
      await registerMutation.mutateAsync({ email, password, hasDisabledNewsletter: !newsletter, captchaResponse }).catch((err: unknown) => {
        captcha.reset();
        throw err instanceof SignUpNotSignedIn ? t('signup.check_email') : err;
      });
    },
  });
  const { register, formState } = form;

  const newsletterField = register('newsletter');

  return (
    <Stack component="form" noValidate spacing={2} onSubmit={onSubmit}>
      <TextInput
        {...register('email')}
        id="signup-email"
        type="email"
        label={t('auth.email')}
        autoComplete="email"
        autoFocus={!defaultEmail}
        error={formState.errors.email?.message}
      />
      <NewPasswordFields
        ids={{ password: 'signup-password', confirmation: 'signup-confirm-password' }}
        labels={{ password: t('auth.password'), confirmation: t('auth.confirm_password') }}
        password={register('password')}
        confirmation={register('confirmPassword')}
        errors={{ password: formState.errors.password?.message, confirmation: formState.errors.confirmPassword?.message }}
        autoFocus={!!defaultEmail}
      />
      <FormControlLabel control={<Checkbox inputRef={newsletterField.ref} name={newsletterField.name} onChange={newsletterField.onChange} onBlur={newsletterField.onBlur} id="signup-newsletter" />} label={t('signup.newsletter')} />
      {captcha.element}
      <Button type="submit" variant="contained" size="large" loading={submitting}>
        {t('auth.sign_up')}
      </Button>
    </Stack>
  );
}
