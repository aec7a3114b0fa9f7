import type { ApplicationClass } from '@flotilla/model';
import { Box, Button, Paper, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { AddIcon, FleetIcon } from '../../../components/icons';
import { DocsLink } from '../../../components/docs-link';

/** What a list with nothing in it shows: what the class is, how to make one, where to read more. */
export function ApplicationsEmptyState({
  appClass,
  onCreate,
  onIntent,
}: {
  appClass: ApplicationClass;
  onCreate: () => void;
  onIntent?: () => void;
}) {
  const { t } = useTranslation();
  const titleId = `${appClass}s-empty-title`;
  return (
    <Paper variant="outlined" component="section" aria-labelledby={titleId} sx={{ p: { xs: 3, md: 6 }, textAlign: 'center' }}>
      <FleetIcon color="primary" sx={{ fontSize: 56, mb: 2 }} />
      <Typography id={titleId} variant="h6" component="h2" gutterBottom>
        {t(`fleets.empty_title_${appClass}`)}
      </Typography>
      <Box sx={{ maxWidth: 560, mx: 'auto', mb: 3 }}>
        <Typography color="text.secondary">{t(`fleets.empty_body_${appClass}`)}</Typography>
      </Box>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'center', alignItems: 'center' }}>
        <Button variant="contained" startIcon={<AddIcon />} onClick={onCreate} onPointerEnter={onIntent}>
          {t(`fleets.create_${appClass}`)}
        </Button>
        <DocsLink page={`${appClass}s`}>{t(`fleets.empty_docs_${appClass}`)}</DocsLink>
      </Stack>
    </Paper>
  );
}
