import { Box, Button, Link, Paper, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { AddIcon, FleetIcon } from '../../../components/icons';
import { FLEETS_DOCS_URL } from '../docs';

/** What a new user sees on /fleets: what a fleet is, how to make one, where to read more. */
export function FleetsEmptyState({ onCreate, onIntent }: { onCreate: () => void; onIntent?: () => void }) {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" component="section" aria-labelledby="fleets-empty-title" sx={{ p: { xs: 3, md: 6 }, textAlign: 'center' }}>
      <FleetIcon color="primary" sx={{ fontSize: 56, mb: 2 }} />
      <Typography id="fleets-empty-title" variant="h6" component="h2" gutterBottom>
        {t('fleets.empty_title')}
      </Typography>
      <Box sx={{ maxWidth: 560, mx: 'auto', mb: 3 }}>
        <Typography color="text.secondary">{t('fleets.empty_body')}</Typography>
      </Box>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'center', alignItems: 'center' }}>
        <Button variant="contained" startIcon={<AddIcon />} onClick={onCreate} onPointerEnter={onIntent}>
          {t('fleets.create')}
        </Button>
        <Link href={FLEETS_DOCS_URL} target="_blank" rel="noopener noreferrer">
          {t('fleets.empty_docs')}
        </Link>
      </Stack>
    </Paper>
  );
}
