import { Button, Stack, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TextInput } from '../../../components/form-fields';
import { errorMessage } from '../../../lib/errors';
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
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();

  const submit = (code: string) => {
    if (pass.isPending) return;
    const trimmed = code.trim();
    if (!trimmed) {
      setFieldError(t(mode === 'totp' ? 'twoFactor.code_required' : 'twoFactor.recovery_code_required'));
      return;
    }
    setFieldError(undefined);
    pass.mutate(
      { kind: mode, code: trimmed },
      {
        // Shown on the field, like the sign-in form's errors (issue 11), not as a toast.
        onError: (err) => {
          setFieldError(errorMessage(err, t));
          setValue('');
        },
      },
    );
  };

  const onChange = (next: string) => {
    const typed = mode === 'totp' ? next.replace(/\s/g, '') : next;
    setValue(typed);
    if (mode === 'totp' && typed.length === TOTP_CODE_LENGTH) submit(typed);
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    submit(value);
  };

  const toggle = () => {
    setMode(mode === 'totp' ? 'recovery' : 'totp');
    setValue('');
    setFieldError(undefined);
  };

  return (
    <Stack component="form" noValidate spacing={2} onSubmit={onSubmit}>
      <Typography variant="body2" color="text.secondary">
        {t(mode === 'totp' ? 'twoFactor.login_intro_totp' : 'twoFactor.login_intro_recovery')}
      </Typography>
      {mode === 'totp' ? (
        <TextInput
          key="totp"
          id="two-factor-code"
          label={t('twoFactor.code')}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          autoComplete="one-time-code"
          autoFocus
          disabled={pass.isPending}
          inputProps={{ inputMode: 'numeric' }}
          error={fieldError}
        />
      ) : (
        <TextInput
          key="recovery"
          id="two-factor-recovery-code"
          label={t('twoFactor.recovery_code')}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          autoComplete="off"
          autoFocus
          disabled={pass.isPending}
          error={fieldError}
        />
      )}
      <Button type="submit" variant="contained" size="large" loading={pass.isPending}>
        {t('twoFactor.verify')}
      </Button>
      <Button variant="text" onClick={toggle} disabled={pass.isPending}>
        {t(mode === 'totp' ? 'twoFactor.use_recovery_code' : 'twoFactor.use_authenticator')}
      </Button>
    </Stack>
  );
}
