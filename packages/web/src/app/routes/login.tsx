import { Alert, Link, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { AuthCard } from '../../features/auth/components/auth-card';
import { LoginForm } from '../../features/auth/components/login-form';
import { SocialSignInButtons, SocialSignInError } from '../../features/auth/components/social-sign-in';
import { SamlSignInError } from '../../features/auth/components/saml-error';
import '../../features/password-reset/i18n';
import { SIGNED_OUT_REASON_KEY } from '../../lib/errors';
import { paths } from '../../lib/paths';

export function LoginRoute() {
  const { t } = useTranslation();
  const { search } = useLocation();
  // Why a session error signed the user out (app/query-client.ts), shown once.
  const [signedOutReason] = useState(() => sessionStorage.getItem(SIGNED_OUT_REASON_KEY));
  useEffect(() => sessionStorage.removeItem(SIGNED_OUT_REASON_KEY), []);
  return (
    <AuthCard
      title={t('auth.login_title')}
      footer={
        <>
          <Typography variant="body2" sx={{ mb: 1 }}>
            <Link component={RouterLink} to={paths.passwordReset()}>
              {t('passwordReset.forgot_password')}
            </Link>
          </Typography>
          <Typography variant="body2" sx={{ mb: 1 }}>
            <Link component={RouterLink} to="/saml">
              {t('auth.sign_in_with_sso')}
            </Link>
          </Typography>
          <Typography variant="body2">
            {t('auth.no_account')}{' '}
            {/* Sign-up keeps the query parameters (email, redirect). */}
            <Link component={RouterLink} to={{ pathname: paths.signup(), search }}>
              {t('auth.create_account_link')}
            </Link>
          </Typography>
        </>
      }
    >
      {signedOutReason && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('errors.signed_out_notice', { reason: signedOutReason })}
        </Alert>
      )}
      <SocialSignInError />
      <SamlSignInError />
      <LoginForm />
      <SocialSignInButtons />
    </AuthCard>
  );
}
