import { Link, Stack, Tab, Tabs, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, Outlet, useLocation, useParams } from 'react-router';
import { FullPageError, FullPageSpinner } from '../../components/full-page-status';
import { RedirectWithError } from '../../components/redirect-with-error';
import { useRelease } from '../../features/releases/api/get-release';
import { shortCommit } from '../../features/releases/release-view';
import { parseRouteId } from '../../lib/route-id';
import { useFleetRouteContext } from './fleet-context';
import type { ReleaseRouteContext } from './release-context';
import '../../features/releases/i18n';

const TABS = ['summary', 'settings'] as const;

/**
 * /{class}s/{id}/releases/{releaseId}[/summary|settings] (spec 2 §2, §8): a non-numeric id
 * goes up to the list with 'Invalid id passed in url'; a release that is missing, unreadable
 * or of another fleet goes to the list with 'Release not found'.
 */
export function ReleaseShellRoute() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { fleet } = useFleetRouteContext();
  const id = parseRouteId(useParams().releaseId);
  const listPath = `/${pathname.split('/')[1] ?? 'fleets'}/${fleet.id}/releases`;
  if (id === undefined) return <RedirectWithError to={listPath} message={t('invalid_id_passed_in_url')} />;
  return <LoadedRelease key={id} releaseId={id} listPath={listPath} />;
}

function LoadedRelease({ releaseId, listPath }: { releaseId: number; listPath: string }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { fleet, access } = useFleetRouteContext();
  const release = useRelease(fleet.id, releaseId);

  if (release.isError && release.data === undefined) {
    return <FullPageError message={t('releases.page_load_failed')} onRetry={() => void release.refetch()} />;
  }
  if (release.isPending) return <FullPageSpinner />;
  if (release.data === null) return <RedirectWithError to={listPath} message={t('releases.not_found')} />;

  const base = `${listPath}/${releaseId}`;
  const tab = TABS.find((x) => pathname === `${base}/${x}`) ?? 'summary';
  const context: ReleaseRouteContext = { release: release.data, access, fetchedAt: release.dataUpdatedAt, listPath };
  return (
    <Stack spacing={2}>
      <Link component={RouterLink} to={listPath} sx={{ alignSelf: 'flex-start' }}>
        {t('releases.back_to_list')}
      </Link>
      <Typography variant="h6" component="h2">
        {t('releases.heading', { version: release.data.raw_version })} <code>{shortCommit(release.data.commit)}</code>
      </Typography>
      <Tabs value={tab} aria-label={t('releases.sections')}>
        {TABS.map((x) => (
          <Tab key={x} value={x} label={t(`releases.tab_${x}`)} component={RouterLink} to={`${base}/${x}`} />
        ))}
      </Tabs>
      <Outlet context={context} />
    </Stack>
  );
}
