import { Link, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useSearchParams } from 'react-router';
import { AuthCard } from '../../features/auth/components/auth-card';
import { SignupForm } from '../../features/auth/components/signup-form';
import { SamlSignInError } from '../../features/auth/components/saml-error';
import { paths } from '../../lib/paths';

/** /signup?email=…&redirect=… — email prefills the form; redirect is remembered by the guard. */
export function SignupRoute() {
  const { t } = useTranslation();
  const { search } = useLocation();
  const [params] = useSearchParams();
  return (
    <AuthCard
      title={t('auth.signup_title')}
      footer={
        <Typography variant="body2">
          {t('auth.have_account')}{' '}
          <Link component={RouterLink} to={{ pathname: paths.login(), search }}>
            {t('auth.sign_in_link')}
          </Link>
        </Typography>
      }
    >
      <SamlSignInError />
      <SignupForm defaultEmail={params.get('email') ?? ''} />
    </AuthCard>
  );
}
