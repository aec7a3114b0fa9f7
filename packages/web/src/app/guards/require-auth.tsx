import { useEffect, useRef } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { FullPageSpinner } from '../../components/full-page-status';
import { BootstrapFailure } from '../platform/bootstrap-failure';
import { useTokenRefresh } from '../../features/auth/api/refresh-token';
import { useSession } from '../../lib/get-session';
import { useQuery } from '@tanstack/react-query';
import { sessionClaimsQueryOptions } from '../../lib/get-session-claims';
import { rememberReturnUrl } from '../../features/auth/return-url';
import { accountStateQueryOptions } from '../../features/verify-email/api/account-state';
import { paths } from '../../lib/paths';

const VERIFY_PENDING = paths.verifyEmailPending();

/**
 * Protected pages (spec 1 §2): an anonymous visitor goes to /login and the page they
 * asked for is kept as the return URL. A user who signs out here is not sent back later.
 * A user whose two-factor check is pending (token claim) goes to /login/two-factor.
 */
export function RequireAuth() {
  const session = useSession();
  const claims = useQuery(sessionClaimsQueryOptions(session.data?.id));
  // Spec 1 §2: where verification is required, an unverified user goes to the pending page.
  // Not asked while the second factor is pending: such a token may read nothing else.
  const twoFactorSettled = claims.isSuccess && claims.data?.twoFactor !== 'pending';
  const account = useQuery(accountStateQueryOptions(twoFactorSettled ? session.data?.id : undefined));
  const { pathname } = useLocation();
  const wasSignedIn = useRef(false);
  useTokenRefresh(!!session.data);

  if (session.isPending) return <FullPageSpinner />;
  if (session.isError) return <BootstrapFailure error={session.error} failedAt={session.errorUpdatedAt} onRetry={() => void session.refetch()} />;
  if (!session.data) return <RedirectToLogin remember={!wasSignedIn.current} />;
  if (claims.isPending) return <FullPageSpinner />;
  if (claims.data?.twoFactor === 'pending') return <RedirectToLogin remember={!wasSignedIn.current} to={paths.loginTwoFactor()} />;
  if (account.isPending) return <FullPageSpinner />;
  if (account.data?.verification === 'pending' && pathname !== VERIFY_PENDING) return <Navigate to={VERIFY_PENDING} replace />;
  wasSignedIn.current = true;
  return <Outlet />;
}

function RedirectToLogin({ remember, to = paths.login() }: { remember: boolean; to?: string }) {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    if (remember) rememberReturnUrl(location.pathname + location.search + location.hash);
    void navigate(to, { replace: true });
  }, [remember, location, navigate, to]);
  return <FullPageSpinner />;
}
