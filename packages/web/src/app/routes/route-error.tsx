import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { FullPageError } from '../../components/full-page-status';

/** Last resort for a route that throws (e.g. a route chunk that failed to load). */
export function RouteErrorBoundary() {
  const { t } = useTranslation();
  const error = useRouteError();
  console.error(error);
  return <FullPageError message={t('errors.page_failed')} onRetry={() => window.location.reload()} />;
}
