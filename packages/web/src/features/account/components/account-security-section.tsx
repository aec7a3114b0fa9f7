import { isValidEmail } from '@flotilla/model';
import { Button, Divider, Stack, Typography } from '@mui/material';
import { useSnackbar } from 'notistack';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { TextInput } from '../../../components/form-fields';
import { NewPasswordFields } from '../../../components/new-password-fields';
import { matchingConfirmation, newPassword } from '../../../lib/form-rules';
import { useNotify } from '../../../lib/notify';
import { useMutationForm } from '../../../lib/use-mutation-form';
import { useChangeEmail, useChangePassword, useOwnAccount } from '../api/account';
import { useLogoutOtherSessions } from '../api/session';
import '../i18n';
import { isReverificationCancelled, useWithRecentAuth } from '../../../components/reverify-dialog';

/**
 * Preferences → account details (spec 1 §2): change password, change email, and "log out
 * from other sessions" (danger zone). Password and email changes re-verify the user's
 * identity first when the session's authTime is over 20 minutes old.
 */
export function AccountSecuritySection() {
  const { t } = useTranslation();
  return (
    <Stack spacing={3} divider={<Divider flexItem />}>
      <SecuritySection id="account-password-title" title={t('account.security.password_title')}>
        <ChangePasswordForm />
      </SecuritySection>
      <SecuritySection id="account-email-title" title={t('account.security.email_title')}>
        <ChangeEmailForm />
      </SecuritySection>
      <SecuritySection id="account-sessions-title" title={t('account.security.sessions_title')}>
        <LogoutOtherSessions />
      </SecuritySection>
    </Stack>
  );
}

/** A part of the page, named by its heading. */
function SecuritySection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <Typography id={id} variant="h6" component="h3" gutterBottom>
        {title}
      </Typography>
      {children}
    </section>
  );
}

/** Errors of a sensitive action are toasted; a cancelled password dialog is not one. */
const cancelledQuietly = (err: unknown) => isReverificationCancelled(err);

function ChangePasswordForm() {
  const { t } = useTranslation();
  const account = useOwnAccount();
  const changePassword = useChangePassword();
  const withRecentAuth = useWithRecentAuth();
  // Spec 1 §5: the current password is required when one exists; new 8–64; confirmation matches.
  const hasPassword = account.data?.has_password_set ?? true;
  const schema = z
    .object({
      currentPassword: z.string(),
      password: newPassword(),
      confirmPassword: z.string(),
    })
    .check(
      z.refine((v) => !hasPassword || v.currentPassword.length > 0, {
        path: ['currentPassword'],
        error: t('account.security.current_password_required'),
      }),
      matchingConfirmation(t('account.security.passwords_do_not_match')),
    );
  const { form, onSubmit, submitting } = useMutationForm({
    schema,
    defaultValues: { currentPassword: '', password: '', confirmPassword: '' },
    submit: ({ currentPassword, password }) => withRecentAuth(() => changePassword.mutateAsync(hasPassword ? { currentPassword, password } : { password })),
    success: t('account.security.password_changed'),
    onSuccess: () => form.reset(),
    onError: cancelledQuietly,
  });
  const { register, formState } = form;

  return (
    <Stack component="form" noValidate spacing={2} onSubmit={onSubmit} sx={{ maxWidth: 420 }} aria-label={t('account.security.password_title')}>
      {hasPassword && (
        <TextInput
          {...register('currentPassword')}
          id="account-current-password"
          type="password"
          label={t('account.security.current_password')}
          autoComplete="current-password"
          error={formState.errors.currentPassword?.message}
        />
      )}
      <NewPasswordFields
        ids={{ password: 'account-new-password', confirmation: 'account-confirm-password' }}
        labels={{ password: t('account.security.new_password'), confirmation: t('account.security.confirm_password') }}
        password={register('password')}
        confirmation={register('confirmPassword')}
        errors={{ password: formState.errors.password?.message, confirmation: formState.errors.confirmPassword?.message }}
      />
      <div>
        <Button type="submit" variant="contained" loading={submitting} disabled={account.isPending}>
          {hasPassword ? t('account.security.change_password') : t('account.security.set_password')}
        </Button>
      </div>
    </Stack>
  );
}

function ChangeEmailForm() {
  const { t } = useTranslation();
  const account = useOwnAccount();
  const changeEmail = useChangeEmail();
  const withRecentAuth = useWithRecentAuth();
  // Spec 1 §5: new email and password required.
  const schema = z.object({
    email: z
      .string()
      .check(
        z.trim(),
        z.minLength(1, t('account.security.email_required')),
        z.refine((v) => v.length === 0 || isValidEmail(v), t('account.security.email_invalid')),
      ),
    password: z.string().check(z.minLength(1, t('account.security.password_required'))),
  });
  const { form, onSubmit, submitting } = useMutationForm({
    schema,
    defaultValues: { email: '', password: '' },
    submit: async ({ email, password }) => (await withRecentAuth(() => changeEmail.mutateAsync({ email, password })), email),
    success: (email) => t('account.security.email_changed', { email }),
    onSuccess: () => form.reset(),
    onError: cancelledQuietly,
  });
  const { register, formState } = form;

  return (
    <Stack component="form" noValidate spacing={2} onSubmit={onSubmit} sx={{ maxWidth: 420 }} aria-label={t('account.security.email_title')}>
      {account.data && (
        <Typography variant="body2" color="text.secondary">
          {t('account.security.current_email', { email: account.data.email })}
        </Typography>
      )}
      <TextInput
        {...register('email')}
        id="account-new-email"
        type="email"
        label={t('account.security.new_email')}
        autoComplete="email"
        error={formState.errors.email?.message}
      />
      <TextInput
        {...register('password')}
        id="account-email-password"
        type="password"
        label={t('account.security.email_password')}
        autoComplete="current-password"
        error={formState.errors.password?.message}
      />
      <div>
        <Button type="submit" variant="contained" loading={submitting}>
          {t('account.security.change_email')}
        </Button>
      </div>
    </Stack>
  );
}

function LogoutOtherSessions() {
  const { t } = useTranslation();
  const notify = useNotify();
  const { enqueueSnackbar } = useSnackbar();
  const logoutOthers = useLogoutOtherSessions();
  const [confirming, setConfirming] = useState(false);
  return (
    <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
      <Typography variant="body2" color="text.secondary">
        {t('account.security.sessions_body')}
      </Typography>
      <Button variant="outlined" color="error" onClick={() => setConfirming(true)}>
        {t('account.security.logout_others')}
      </Button>
      {confirming && (
        <ConfirmDialog
          title={t('account.security.logout_others_confirm_title')}
          body={t('account.security.logout_others_confirm_body')}
          confirmLabel={t('account.security.logout_others_confirm')}
          onClose={() => setConfirming(false)}
          onConfirm={async () => {
            try {
              await logoutOthers.mutateAsync();
              notify.success(t('account.security.logout_others_done'));
            } catch {
              // Spec 1 §8: errors.failed_logout_other_sessions, as a warning.
              enqueueSnackbar(t('account.security.failed_logout_other_sessions'), { variant: 'warning' });
            }
            setConfirming(false);
          }}
        />
      )}
    </Stack>
  );
}
