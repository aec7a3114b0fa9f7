import { useEffect, useRef } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FullPageError, FullPageSpinner } from '../../components/full-page-status';
import { useTokenRefresh } from '../../features/auth/api/refresh-token';
import { useSession } from '../../features/auth/api/get-session';
import { rememberReturnUrl } from '../../features/auth/return-url';

/**
 * Protected pages (spec 1 §2): an anonymous visitor goes to /login and the page they
 * asked for is kept as the return URL. A user who signs out here is not sent back later.
 */
export function RequireAuth() {
  const { t } = useTranslation();
  const session = useSession();
  const wasSignedIn = useRef(false);
  useTokenRefresh(!!session.data);

  if (session.isPending) return <FullPageSpinner />;
  if (session.isError) return <FullPageError message={t('errors.server_unreachable')} onRetry={() => void session.refetch()} />;
  if (!session.data) return <RedirectToLogin remember={!wasSignedIn.current} />;
  wasSignedIn.current = true;
  return <Outlet />;
}

function RedirectToLogin({ remember }: { remember: boolean }) {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    if (remember) rememberReturnUrl(location.pathname + location.search + location.hash);
    void navigate('/login', { replace: true });
  }, [remember, location, navigate]);
  return <FullPageSpinner />;
}
