import { Box, Button, CircularProgress, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** Shown while the session or a route module loads. */
export function FullPageSpinner() {
  const { t } = useTranslation();
  return (
    <Box sx={{ minHeight: '60vh', display: 'grid', placeItems: 'center' }}>
      <CircularProgress aria-label={t('app.loading')} />
    </Box>
  );
}

export function FullPageError({ message, onRetry, actionLabel }: { message: string; onRetry?: () => void; actionLabel?: string }) {
  const { t } = useTranslation();
  return (
    <Box role="alert" sx={{ minHeight: '60vh', display: 'grid', placeItems: 'center', textAlign: 'center', p: 2 }}>
      <div>
        <Typography variant="h6" component="p" gutterBottom>
          {message}
        </Typography>
        {onRetry && (
          <Button variant="outlined" onClick={onRetry}>
            {actionLabel ?? t('common.retry')}
          </Button>
        )}
      </div>
    </Box>
  );
}
