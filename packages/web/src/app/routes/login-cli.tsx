import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { AuthCard } from '../../features/auth/components/auth-card';
import { cliCallbackUrl } from '@flotilla/model';
import { CliLoginPanel } from '../../features/account/components/cli-login-panel';
import '../../features/account/i18n';
import { paths } from '../../lib/paths';

const PREFIX = paths.loginCli();

/** /login/cli/* (spec 1 §2): only a localhost or IP-address callback; anything else goes to /. */
export function LoginCliRoute() {
  const { t } = useTranslation();
  // The raw path: the CLI encodes the callback twice, and the router would decode it once.
  const path = window.location.pathname;
  const callback = path.startsWith(PREFIX) ? cliCallbackUrl(path.slice(PREFIX.length)) : null;
  if (!callback) return <Navigate to={paths.home()} replace />;
  return (
    <AuthCard title={t('account.cli.title')}>
      <CliLoginPanel callback={callback} />
    </AuthCard>
  );
}
