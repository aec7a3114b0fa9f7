import { Button, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { TextInput } from '../../../components/form-fields';
import { errorMessage } from '../../../lib/errors';
import { requiredText } from '../../../lib/form-rules';
import { useMutationForm } from '../../../lib/use-mutation-form';
import { usePassSecondFactor, type SecondFactor } from '../api/two-factor';
import { TOTP_CODE_LENGTH } from '../two-factor-rules';

/**
 * Spec 1 §4: authenticator mode or recovery-code mode, toggled by a button; the
 * authenticator code submits itself at exactly 6 characters (§9). On success the SDK holds
 * a token whose second factor is passed and the session claims are read again.
 */
export function TwoFactorLoginForm() {
  const { t } = useTranslation();
  const pass = usePassSecondFactor();
  const [mode, setMode] = useState<SecondFactor['kind']>('totp');
  const schema = z.object({ code: requiredText(t(mode === 'totp' ? 'twoFactor.code_required' : 'twoFactor.recovery_code_required')) });
  const { form, onSubmit, submitNow, submitting, fieldError } = useMutationForm({
    schema,
    defaultValues: { code: '' },
    submit: ({ code }) => pass.mutateAsync({ kind: mode, code }),
    // Shown on the field, like the sign-in form's errors (issue 11), not as a toast.
    onError: (err) => {
      form.setValue('code', '');
      form.setError('code', { message: errorMessage(err, t) });
      return true;
    },
  });
  const value = form.watch('code');

  // The message stays until the next try (a code is not checked as it is typed).
  const onChange = (next: string) => {
    const typed = mode === 'totp' ? next.replace(/\s/g, '') : next;
    form.setValue('code', typed);
    if (mode === 'totp' && typed.length === TOTP_CODE_LENGTH && !submitting) void submitNow();
  };

  const toggle = () => {
    setMode(mode === 'totp' ? 'recovery' : 'totp');
    form.reset({ code: '' });
  };

  const field = {
    value,
    onChange: (e: { target: { value: string } }) => onChange(e.target.value),
    autoFocus: true,
    disabled: submitting,
    error: fieldError('code'),
  };
  return (
    <Stack component="form" noValidate spacing={2} onSubmit={onSubmit}>
      <Typography variant="body2" color="text.secondary">
        {t(mode === 'totp' ? 'twoFactor.login_intro_totp' : 'twoFactor.login_intro_recovery')}
      </Typography>
      {mode === 'totp' ? (
        <TextInput key="totp" id="two-factor-code" label={t('twoFactor.code')} autoComplete="one-time-code" inputProps={{ inputMode: 'numeric' }} {...field} />
      ) : (
        <TextInput key="recovery" id="two-factor-recovery-code" label={t('twoFactor.recovery_code')} autoComplete="off" {...field} />
      )}
      <Button type="submit" variant="contained" size="large" loading={submitting}>
        {t('twoFactor.verify')}
      </Button>
      <Button variant="text" onClick={toggle} disabled={submitting}>
        {t(mode === 'totp' ? 'twoFactor.use_recovery_code' : 'twoFactor.use_authenticator')}
      </Button>
    </Stack>
  );
}
