import { Box, Button, Typography } from '@mui/material';
import { useEffect, useState, useSyncExternalStore, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { connectivity, rateLimitNotice } from '../../lib/connectivity';
import { PlainBanner } from '../../components/plain-banner';
import './i18n';

/**
 * The offline banner (spec 3 §4 "An offline banner has a retry action") and the throttling
 * banner (spec 3 §8, HTTP 429), on every page: signed in or not, error pages included. Fixed
 * at the bottom of the window so no page's layout has to make room for them. The throttling
 * banner's module loads on the first 429 (an answer: the server is there to serve it).
 */
export function ConnectivityBanners() {
  const { t } = useTranslation();
  const state = useSyncExternalStore(connectivity.subscribe, connectivity.getState);
  const throttled = useSyncExternalStore(rateLimitNotice.subscribe, rateLimitNotice.getUntil) !== null;
  const [Throttle, setThrottle] = useState<ComponentType | null>(null);
  useEffect(() => {
    if (throttled && !Throttle) {
      import('./throttle-banner').then((m) => setThrottle(() => m.default)).catch(() => {});
    }
  }, [throttled, Throttle]);
  if (!state.offline && !(throttled && Throttle)) return null;
  return (
    <Box sx={{ position: 'fixed', bottom: 16, left: '50%', transform: 'translateX(-50%)', width: 'min(640px, calc(100vw - 32px))', zIndex: 1500, display: 'grid', gap: 1 }}>
      {state.offline && (
        <PlainBanner tone="error" role="alert" floating>
          <Typography variant="body2" sx={{ flexGrow: 1 }}>
            {t('platform.offline')}
          </Typography>
          <Button size="small" color="inherit" variant="outlined" disabled={state.checking} onClick={() => void connectivity.retryNow()}>
            {t('platform.offline_retry')}
          </Button>
        </PlainBanner>
      )}
      {throttled && Throttle && <Throttle />}
    </Box>
  );
}
