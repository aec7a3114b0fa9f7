import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { FullPageError } from '../../components/full-page-status';
import { isChunkLoadError } from '../../lib/connectivity';
import '../platform/i18n';

/**
 * Last resort for a route that throws. A page or dialog chunk that failed to load (a new
 * build replaced it, the connection dropped, 120 s without an answer) offers a reload instead
 * of the generic error (spec 3 §9 chunk loading).
 */
export function RouteErrorBoundary() {
  const { t } = useTranslation();
  const error = useRouteError();
  console.error(error);
  if (isChunkLoadError(error)) {
    return <FullPageError message={t('platform.chunk_failed')} actionLabel={t('platform.reload')} onRetry={() => window.location.reload()} />;
  }
  return <FullPageError message={t('errors.page_failed')} onRetry={() => window.location.reload()} />;
}
