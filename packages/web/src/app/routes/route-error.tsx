import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { FullPageError, FullPageSpinner } from '../../components/full-page-status';
import { isChunkLoadError } from '../../lib/connectivity';
import { chunkFailureHandler } from '../../lib/connectivity/chunk-reload';
import { pingProbe } from '../../lib/connectivity/connectivity-monitor';
import '../platform/i18n';

/**
 * Last resort for a route that throws. A page or dialog chunk that failed to load (a new
 * build replaced it, the connection dropped, 120 s without an answer) is loaded again by one
 * reload of the page, and after that offers a reload instead of the generic error (spec 3 §9
 * chunk loading; lib/connectivity/chunk-reload.ts).
 */
export function RouteErrorBoundary() {
  const { t } = useTranslation();
  const error = useRouteError();
  if (isChunkLoadError(error)) return <ChunkFailure error={error} />;
  console.error(error);
  return <FullPageError message={t('errors.page_failed')} onRetry={() => window.location.reload()} />;
}

function sessionStore(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** This document's chunk failures (lib/connectivity/chunk-reload.ts). */
const chunkFailures = chunkFailureHandler({
  store: sessionStore,
  reachable: () => pingProbe(window.location.origin)(),
  reload: () => window.location.reload(),
  log: console,
});

function ChunkFailure({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const [offer, setOffer] = useState(false);
  useEffect(() => {
    let gone = false;
    const hidden = chunkFailures.shown();
    void chunkFailures.handle(error).then((reloading) => {
      if (!reloading && !gone) setOffer(true);
    });
    return () => {
      gone = true;
      hidden();
    };
  }, [error]);
  if (!offer) return <FullPageSpinner />;
  return <FullPageError message={t('platform.chunk_failed')} actionLabel={t('platform.reload')} onRetry={() => window.location.reload()} />;
}
