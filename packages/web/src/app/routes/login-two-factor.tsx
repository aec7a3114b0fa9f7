import { Button } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { FullPageSpinner } from '../../components/full-page-status';
import { BootstrapFailure } from '../platform/bootstrap-failure';
import { useSession } from '../../lib/get-session';
import { sessionClaimsQueryOptions } from '../../lib/get-session-claims';
import { useLogout } from '../../features/auth/api/logout';
import { AuthCard } from '../../features/auth/components/auth-card';
import { clearReturnUrl, peekReturnUrl } from '../../features/auth/return-url';
import { TwoFactorLoginForm } from '../../features/two-factor/components/two-factor-login-form';
import '../../features/two-factor/i18n';
import { paths } from '../../lib/paths';

/**
 * /login/two-factor (spec 1 §2): the second step of a login whose token says two-factor is
 * pending. Without a session it is the login page's turn; once the factor is passed (or
 * when none is pending) the user continues to the remembered return URL.
 */
export function LoginTwoFactorRoute() {
  const { t } = useTranslation();
  const session = useSession();
  const claims = useQuery(sessionClaimsQueryOptions(session.data?.id));
  const logout = useLogout();

  if (session.isPending) return <FullPageSpinner />;
  if (session.isError) return <BootstrapFailure error={session.error} failedAt={session.errorUpdatedAt} onRetry={() => void session.refetch()} />;
  if (!session.data) return <Navigate to={paths.login()} replace />;
  if (claims.isPending) return <FullPageSpinner />;
  if (claims.data?.twoFactor !== 'pending') return <ContinueAfterLogin />;
  return (
    <AuthCard
      title={t('twoFactor.login_title')}
      footer={
        <Button variant="text" size="small" onClick={() => logout.mutate()} disabled={logout.isPending}>
          {t('twoFactor.back_to_login')}
        </Button>
      }
    >
      {/* Passing re-reads the token's claims; this route then moves on by itself. */}
      <TwoFactorLoginForm />
    </AuthCard>
  );
}

/** Consumes the return URL once (a ref keeps StrictMode's second effect run from losing it). */
function ContinueAfterLogin() {
  const navigate = useNavigate();
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    const target = peekReturnUrl() ?? '/';
    clearReturnUrl();
    void navigate(target, { replace: true });
  }, [navigate]);
  return <FullPageSpinner />;
}
