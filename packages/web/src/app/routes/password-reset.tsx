import { Link, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams, useSearchParams } from 'react-router';
import { AuthCard } from '../../features/auth/components/auth-card';
import { RequestResetForm } from '../../features/password-reset/components/request-reset-form';
import { ResetPasswordForm } from '../../features/password-reset/components/reset-password-form';
import '../../features/password-reset/i18n';
import { paths } from '../../lib/paths';

function BackToLogin({ label }: { label: string }) {
  return (
    <Typography variant="body2">
      <Link component={RouterLink} to={paths.login()}>
        {label}
      </Link>
    </Typography>
  );
}

/** /password-reset (public only): the request form; ?email= prefills it. */
export function PasswordResetRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  return (
    <AuthCard title={t('passwordReset.request_title')} footer={<BackToLogin label={t('passwordReset.back_to_login')} />}>
      <RequestResetForm defaultEmail={params.get('email') ?? ''} onSent={() => void navigate(paths.passwordResetSuccess())} />
    </AuthCard>
  );
}

/** /password-reset/success: the same confirmation whether or not the address has an account. */
export function PasswordResetSuccessRoute() {
  const { t } = useTranslation();
  return (
    <AuthCard title={t('passwordReset.success_title')} footer={<BackToLogin label={t('passwordReset.back_to_login')} />}>
      <Typography>{t('passwordReset.success_text')}</Typography>
    </AuthCard>
  );
}

/** /user/reset-password/{loginCode}: choose the new password, then sign in with it. */
export function ResetPasswordRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { loginCode = '' } = useParams();
  return (
    <AuthCard
      title={t('passwordReset.reset_title')}
      footer={
        <Typography variant="body2">
          <Link component={RouterLink} to={paths.passwordReset()}>
            {t('passwordReset.request_again')}
          </Link>
        </Typography>
      }
    >
      <ResetPasswordForm loginCode={loginCode} onDone={() => void navigate(paths.login(), { replace: true })} />
    </AuthCard>
  );
}
