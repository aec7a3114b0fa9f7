import type { ApplicationClass } from '@flotilla/model';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { FullPageSpinner } from '../../components/full-page-status';
import { ApplicationList } from '../../features/fleets/components/application-list';
import { useAppsEnabled } from '../../features/preferences/api/get-apps-enabled';
import { paths } from '../../lib/paths';

/** /fleets, /apps, /blocks (spec 2 §2): the applications of one class the user can read. */
function ApplicationsPage({ appClass }: { appClass: ApplicationClass }) {
  const { t } = useTranslation();
  const appsEnabled = useAppsEnabled() === true;
  return <ApplicationList appClass={appClass} title={t(`fleets.title_${appClass}`)} appsEnabled={appsEnabled} />;
}

export function FleetsRoute() {
  return <ApplicationsPage appClass="fleet" />;
}

export function BlocksRoute() {
  return <ApplicationsPage appClass="block" />;
}

/** Spec 1 line 7: the apps section exists only with the apps flag; otherwise /fleets. */
export function AppsRoute() {
  return (
    <AppsFlagGate>
      <ApplicationsPage appClass="app" />
    </AppsFlagGate>
  );
}

export function AppsFlagGate({ children }: { children: ReactNode }) {
  const appsEnabled = useAppsEnabled();
  if (appsEnabled === undefined) return <FullPageSpinner />;
  if (!appsEnabled) return <Navigate to={paths.applications()} replace />;
  return <>{children}</>;
}
