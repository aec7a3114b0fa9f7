import { Box, Button, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FullPageSpinner } from '../../components/full-page-status';
import { useSession } from '../../lib/get-session';
import { useQuery } from '@tanstack/react-query';
import { sessionClaimsQueryOptions } from '../../lib/get-session-claims';
import { AppLayout } from '../layout/app-layout';
import { paths } from '../../lib/paths';

/**
 * Unmatched paths (spec 1 §2): a not-found page with a go-home button to /. A signed-in user
 * (second factor passed) sees it inside the app shell, like every other signed-in page.
 */
export function NotFoundRoute() {
  const session = useSession();
  const claims = useQuery(sessionClaimsQueryOptions(session.data?.id));
  if (session.isPending || (session.data && claims.isPending)) return <FullPageSpinner />;
  if (session.data && claims.data?.twoFactor !== 'pending') {
    return (
      <AppLayout>
        <NotFoundContent />
      </AppLayout>
    );
  }
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2 }}>
      <NotFoundContent />
    </Box>
  );
}

/** The not-found message and its go-home button, for a page that is not there (inside the shell). */
export function NotFoundContent() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Box sx={{ textAlign: 'center', py: 8 }}>
      <Typography variant="h2" component="p" color="text.secondary">
        404
      </Typography>
      <Typography variant="h5" component="h1" gutterBottom>
        {t('not_found.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {t('not_found.body')}
      </Typography>
      <Button variant="contained" onClick={() => void navigate(paths.home())}>
        {t('not_found.go_home')}
      </Button>
    </Box>
  );
}
