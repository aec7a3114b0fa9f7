import { Link, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { AuthCard } from '../../features/auth/components/auth-card';
import { LoginForm } from '../../features/auth/components/login-form';

export function LoginRoute() {
  const { t } = useTranslation();
  const { search } = useLocation();
  return (
    <AuthCard
      title={t('auth.login_title')}
      footer={
        <Typography variant="body2">
          {t('auth.no_account')}{' '}
          {/* Sign-up keeps the query parameters (email, redirect). */}
          <Link component={RouterLink} to={{ pathname: '/signup', search }}>
            {t('auth.create_account_link')}
          </Link>
        </Typography>
      }
    >
      <LoginForm />
    </AuthCard>
  );
}
