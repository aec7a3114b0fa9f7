import { Link, Stack, Tab, Tabs } from '@mui/material';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, Navigate, Outlet, useLocation, useParams } from 'react-router';
import { FullPageError, FullPageSpinner } from '../../components/full-page-status';
import { PageHeader } from '../../components/page-header';
import { RedirectWithError } from '../../components/redirect-with-error';
import { useFleet, type FleetDetails } from '../../features/fleet-access/api/get-fleet';
import { SupportAccessBanner } from '../../features/fleet-access/components/support-access-banner';
import { NotFoundOrRefused } from '../../features/fleet-access/components/not-found-or-refused';
import type { FleetAccess } from '../../lib/fleet-access';
import { useFleetAccess } from '../../features/fleet-access/use-fleet-access';
import { parseRouteId } from '../../lib/route-id';
import type { FleetRouteContext } from './fleet-context';
import { classSegment, paths } from '../../lib/paths';

// The refused page for provider staff (issue 19) loads only when it is shown.

// The billing banners (issue 18) load after the page, and not at all with billing off.
const BillingBanners = lazy(async () => ({ default: (await import('../../features/billing-banners')).BillingBanners }));

// Warnings are rare and not needed for the first paint: their query and UI load after the shell.
const ApplicationWarnings = lazy(async () => ({
  default: (await import('../../features/fleets/components/application-warnings')).ApplicationWarnings,
}));

/** The URL prefix of each application class (spec 2 §2: /{class}s/{applicationId}). */

/** Sub-pages that exist so far; the summary is the index. */
const TABS = ['devices', 'releases', 'envvars', 'config', 'members', 'teams', 'api-keys', 'settings'] as const;

/**
 * /fleets|apps|blocks/{applicationId}[/members|teams] (spec 2 §2 "Application shell rules"):
 * a non-numeric id goes up one level with 'Invalid id passed in url'; a missing or unreadable
 * application (both answer {"d":[]}) goes to /fleets; a frozen organization to its page;
 * a class that does not match the URL rewrites the prefix and keeps the sub-path.
 */
export function FleetShellRoute() {
  const { t } = useTranslation();
  const prefix = useLocation().pathname.split('/')[1] ?? 'fleets';
  const id = parseRouteId(useParams().fleetId);
  // Up one level is the class's list; only /fleets exists so far (the /apps and /blocks lists do not).
  if (id === undefined) return <RedirectWithError to={paths.applications()} message={t('invalid_id_passed_in_url')} />;
  return <LoadedFleet key={id} id={id} prefix={prefix} />;
}

function LoadedFleet({ id, prefix }: { id: number; prefix: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  const fleet = useFleet(id);
  const { access, isError, refetch } = useFleetAccess(id);

  if (fleet.isError || isError) return <FullPageError message={t('fleet.load_failed')} onRetry={() => void refetch()} />;
  if (fleet.isPending) return <FullPageSpinner />;
  if (fleet.data === null) return <FleetNotFound />;
  const { organization, is_of__class } = fleet.data;
  if (organization.is_frozen) return <RedirectWithError to={paths.organization(organization.id)} message={t('fleet.organization_frozen')} />;
  const expected = classSegment(is_of__class);
  if (expected !== prefix) {
    return <Navigate replace to={`/${expected}${location.pathname.slice(prefix.length + 1)}${location.search}${location.hash}`} />;
  }
  if (!access) return <FullPageSpinner />;
  return <FleetShell fleet={fleet.data} access={access} base={`/${prefix}/${id}`} />;
}

/** A missing or unreadable fleet: to /fleets; for provider staff, the refused page (issue 19: no support access granted). */
function FleetNotFound() {
  const { t } = useTranslation();
  return <NotFoundOrRefused kind="fleet" to={paths.applications()} message={t('fleet.not_found')} />;
}

function FleetShell({ fleet, access, base }: { fleet: FleetDetails; access: FleetAccess; base: string }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  // Spec 2 §2: only fleets have devices, variables, configuration and provisioning keys (api-keys).
  const tabs = TABS.filter((x) => (x !== 'api-keys' && x !== 'devices' && x !== 'envvars' && x !== 'config') || fleet.is_of__class === 'fleet');
  // A release page (releases/{id}/…) keeps the Releases tab selected.
  const tab = tabs.find((x) => pathname === `${base}/${x}` || pathname.startsWith(`${base}/${x}/`)) ?? 'summary';
  const context: FleetRouteContext = { fleet, access };
  return (
    <>
      <PageHeader title={fleet.app_name} />
      <Stack spacing={3}>
        <Link component={RouterLink} to={paths.organization(fleet.organization.id)} sx={{ alignSelf: 'flex-start' }}>
          {t('fleet.organization_link', { name: fleet.organization.name })}
        </Link>
        <SupportAccessBanner access={access} supportUntil={fleet.is_accessible_by_support_until__date} />
        <Suspense fallback={null}>
          <BillingBanners organizationId={fleet.organization.id} />
        </Suspense>
        {/* Spec 2 §2: discontinued device type and legacy fleet warnings. */}
        <Suspense fallback={null}>
          <ApplicationWarnings applicationId={fleet.id} canChangeType={access.can('resin.application.change-type')} />
        </Suspense>
        <Tabs value={tab} aria-label={t('fleet.sections')}>
          <Tab value="summary" label={t('fleet.tab_summary')} component={RouterLink} to={base} />
          {tabs.map((x) => (
            <Tab key={x} value={x} label={t(`fleet.tab_${x}`)} component={RouterLink} to={`${base}/${x}`} />
          ))}
        </Tabs>
        <Outlet context={context} />
      </Stack>
    </>
  );
}
