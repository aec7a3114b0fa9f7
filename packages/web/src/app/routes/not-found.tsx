import { Box, Button, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** Unmatched paths (spec 1 §2): a not-found page with a go-home button to /. */
export function NotFoundRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', textAlign: 'center', p: 2 }}>
      <div>
        <Typography variant="h2" component="p" color="text.secondary">
          404
        </Typography>
        <Typography variant="h5" component="h1" gutterBottom>
          {t('not_found.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {t('not_found.body')}
        </Typography>
        <Button variant="contained" onClick={() => void navigate('/')}>
          {t('not_found.go_home')}
        </Button>
      </div>
    </Box>
  );
}
