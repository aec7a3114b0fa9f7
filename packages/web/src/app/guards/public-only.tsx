import { useEffect, useRef } from 'react';
import { Navigate, Outlet, useNavigate, useSearchParams } from 'react-router';
import { FullPageSpinner } from '../../components/full-page-status';
import { BootstrapFailure } from '../platform/bootstrap-failure';
import { useSession } from '../../lib/get-session';
import { useQuery } from '@tanstack/react-query';
import { sessionClaimsQueryOptions } from '../../lib/get-session-claims';
import { clearReturnUrl, peekReturnUrl, rememberReturnUrl } from '../../features/auth/return-url';
import { paths } from '../../lib/paths';

/**
 * Public-only pages (login, sign-up; spec 1 §2): a `redirect` query parameter is
 * remembered, and a signed-in user goes to the remembered target or to /.
 */
export function PublicOnly() {
  const session = useSession();
  const claims = useQuery(sessionClaimsQueryOptions(session.data?.id));
  const [params] = useSearchParams();
  const redirect = params.get('redirect');

  useEffect(() => rememberReturnUrl(redirect), [redirect]);

  if (session.isPending) return <FullPageSpinner />;
  if (session.isError) return <BootstrapFailure error={session.error} failedAt={session.errorUpdatedAt} onRetry={() => void session.refetch()} />;
  if (session.data && claims.isPending) return <FullPageSpinner />;
  // Signed in with the password but not past the second factor yet: the return URL waits.
  if (session.data && claims.data?.twoFactor === 'pending') return <Navigate to={paths.loginTwoFactor()} replace />;
  if (session.data) return <RedirectAfterLogin redirect={redirect} />;
  return <Outlet />;
}

/** Consumes the return URL once (a ref keeps StrictMode's second effect run from losing it). */
function RedirectAfterLogin({ redirect }: { redirect: string | null }) {
  const navigate = useNavigate();
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    rememberReturnUrl(redirect);
    const target = peekReturnUrl() ?? '/';
    clearReturnUrl();
    void navigate(target, { replace: true });
  }, [redirect, navigate]);
  return <FullPageSpinner />;
}
