import { Box, Button, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../lib/paths';

/**
 * Issue 19 item 2: a support agent asking for a fleet or device whose organization has not
 * granted support access (or whose grant expired) is refused by the server like a stranger
 * (404 / empty). For provider staff the not-found page says why, and how the customer grants
 * access; everybody else keeps the ordinary not-found behaviour.
 */
export function SupportAccessRefused({ kind }: { kind: 'fleet' | 'device' }) {
  const { t } = useTranslation();
  return (
    <Box component="section" aria-labelledby="support-refused-title" sx={{ textAlign: 'center', py: 8, maxWidth: 720, mx: 'auto' }}>
      <Typography variant="h2" component="p" color="text.secondary">
        404
      </Typography>
      <Typography id="support-refused-title" variant="h5" component="h1" gutterBottom>
        {t('support_refused.title')}
      </Typography>
      <Typography sx={{ mb: 1 }}>{t(`support_refused.${kind}`)}</Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {t('support_refused.how')}
      </Typography>
      <Button variant="contained" component={RouterLink} to={paths.home()}>
        {t('not_found.go_home')}
      </Button>
    </Box>
  );
}
