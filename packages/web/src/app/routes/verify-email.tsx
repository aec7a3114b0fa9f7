import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { FullPageSpinner } from '../../components/full-page-status';
import { getSession, sessionQueryKey, useSession } from '../../lib/get-session';
import { useLogout } from '../../features/auth/api/logout';
import { AuthCard } from '../../features/auth/components/auth-card';
import { accountStateQueryKey, accountStateQueryOptions, nextAfterVerification } from '../../features/verify-email/api/account-state';
import { VerifyEmailPending } from '../../features/verify-email/components/verify-email-pending';
import { VerifyEmailProgress } from '../../features/verify-email/components/verify-email-progress';
import { sdk } from '../../lib/sdk';
import '../../features/verify-email/i18n';
import { paths } from '../../lib/paths';

const PENDING = paths.verifyEmailPending();

/** /user/verify-email/pending (login required; no sidebar). */
export function VerifyEmailPendingRoute() {
  const { t } = useTranslation();
  const session = useSession();
  const logout = useLogout();
  if (!session.data) return <FullPageSpinner />;
  return (
    <AuthCard title={t('verifyEmail.pending_title')}>
      <VerifyEmailPending userId={session.data.id} onSignOut={() => logout.mutate()} />
    </AuthCard>
  );
}

/**
 * /user/verify-email/{token}/{email} (token first: docs/decisions.md). Works signed in or
 * not: the server answers a session token, used when nobody is signed in here. Then the
 * profile step if not done yet, else home; a failure goes to the pending page (spec 1 §4).
 */
export function VerifyEmailRoute() {
  const { t } = useTranslation();
  const { token = '', email = '' } = useParams();
  const session = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const signedIn = session.data ?? null;

  const onVerified = useCallback(
    async (sessionToken: string) => {
      let user = signedIn;
      if (!user) {
        await sdk.auth.loginWithToken(sessionToken);
        user = await getSession();
        queryClient.setQueryData(sessionQueryKey, user);
      }
      await queryClient.invalidateQueries({ queryKey: accountStateQueryKey });
      const state = user ? await queryClient.fetchQuery(accountStateQueryOptions(user.id)).catch(() => undefined) : undefined;
      void navigate(nextAfterVerification(state), { replace: true });
    },
    [signedIn, queryClient, navigate],
  );
  const onFailed = useCallback(() => void navigate(PENDING, { replace: true }), [navigate]);

  if (session.isPending) return <FullPageSpinner />;
  return (
    <AuthCard title={t('verifyEmail.verify_title')}>
      <VerifyEmailProgress token={token} email={email} onVerified={onVerified} onFailed={onFailed} />
    </AuthCard>
  );
}
