import { lazy, Suspense } from 'react';
import { Navigate, useParams } from 'react-router';
import '../../features/preferences/i18n';
import { useWithRecentAuth } from '../../components/reverify-dialog';
import { isPreferenceTab, PreferencesPage } from '../../features/preferences/components/preferences-page';
import { paths } from '../../lib/paths';

// Sections other features deliver, each in its own chunk, loaded when its tab opens.
const AccountSecuritySection = lazy(async () => ({
  default: (await import('../../features/account/components/account-security-section')).AccountSecuritySection,
}));
const DeleteAccountSection = lazy(async () => ({
  default: (await import('../../features/account/components/delete-account-section')).DeleteAccountSection,
}));
const TwoFactorPanel = lazy(async () => ({
  default: (await import('../../features/two-factor/components/two-factor-panel')).TwoFactorPanel,
}));

/** /preferences and /preferences/{tab} (spec 1 §2); an unknown tab goes to the details tab. */
export function PreferencesRoute() {
  const { tab } = useParams();
  // Spec 1 §4: re-verify before a sensitive action when authTime is old, and again if the
  // server still answers the login-required error.
  const runSensitive = useWithRecentAuth();
  // The Appearance tab's former path (issue 11) still leads to it.
  if (tab === 'experimental') return <Navigate to={paths.preferences('appearance')} replace />;
  if (tab !== undefined && !isPreferenceTab(tab)) return <Navigate to={paths.preferences()} replace />;
  return (
    <PreferencesPage
      tab={tab ?? 'details'}
      runSensitive={runSensitive}
      slots={{
        security: (
          <Suspense>
            <AccountSecuritySection />
          </Suspense>
        ),
        deleteAccount: (
          <Suspense>
            <DeleteAccountSection />
          </Suspense>
        ),
        twoFactor: (
          <Suspense>
            <TwoFactorPanel />
          </Suspense>
        ),
      }}
    />
  );
}
