import { useEffect, useRef } from 'react';
import { Outlet, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FullPageError, FullPageSpinner } from '../../components/full-page-status';
import { useSession } from '../../features/auth/api/get-session';
import { clearReturnUrl, peekReturnUrl, rememberReturnUrl } from '../../features/auth/return-url';

/**
 * Public-only pages (login, sign-up; spec 1 §2): a `redirect` query parameter is
 * remembered, and a signed-in user goes to the remembered target or to /.
 */
export function PublicOnly() {
  const { t } = useTranslation();
  const session = useSession();
  const [params] = useSearchParams();
  const redirect = params.get('redirect');

  useEffect(() => rememberReturnUrl(redirect), [redirect]);

  if (session.isPending) return <FullPageSpinner />;
  if (session.isError) return <FullPageError message={t('errors.server_unreachable')} onRetry={() => void session.refetch()} />;
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
