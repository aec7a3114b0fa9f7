import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { AuthCard } from '../../features/auth/components/auth-card';
import { OAuthConsentPanel } from '../../features/account/components/oauth-consent-panel';
import '../../features/account/i18n';

/** /login/oauth/{clientId}?state=… (spec 1 §2): consent to an OAuth application. */
export function LoginOAuthRoute() {
  const { t } = useTranslation();
  const { clientId = '' } = useParams();
  const [search] = useSearchParams();
  return (
    <AuthCard title={t('account.oauth.authorize')}>
      <OAuthConsentPanel clientId={clientId} state={search.get('state')} />
    </AuthCard>
  );
}
