import { Alert, Box, Button } from '@mui/material';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { connectivity, rateLimitNotice } from '../../lib/connectivity';
import './i18n';

/**
 * The offline banner (spec 3 §4 "An offline banner has a retry action") and the throttling
 * banner (spec 3 §8, HTTP 429), on every page: signed in or not, error pages included. Fixed
 * at the bottom of the window so no page's layout has to make room for them.
 */
export function ConnectivityBanners() {
  const { t } = useTranslation();
  const state = useSyncExternalStore(connectivity.subscribe, connectivity.getState);
  const throttledUntil = useSyncExternalStore(rateLimitNotice.subscribe, rateLimitNotice.getUntil);
  if (!state.offline && throttledUntil === null) return null;
  return (
    <Box
      sx={{
        position: 'fixed',
        bottom: 16,
        left: '50%',
        transform: 'translateX(-50%)',
        width: 'min(640px, calc(100vw - 32px))',
        zIndex: (theme) => theme.zIndex.snackbar + 1,
        display: 'grid',
        gap: 1,
      }}
    >
      {state.offline && (
        <Alert
          severity="error"
          variant="filled"
          role="alert"
          action={
            <Button color="inherit" size="small" disabled={state.checking} onClick={() => void connectivity.retryNow()}>
              {state.checking ? t('platform.offline_checking') : t('platform.offline_retry')}
            </Button>
          }
        >
          {t('platform.offline')}
        </Alert>
      )}
      {throttledUntil !== null && (
        <Alert severity="info" variant="filled" role="status">
          {t('platform.throttled')}
        </Alert>
      )}
    </Box>
  );
}
