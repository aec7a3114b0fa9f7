import { Paper, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { DocsLink } from '../../components/docs-link';
import { PageHeader } from '../../components/page-header';

/** /support (spec 3 §Support): what there is on a self-hosted installation (the guides) and what is not there yet (tickets). */
export function SupportRoute() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('support.title')} />
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <Typography>{t('support.tickets_unavailable')}</Typography>
          <Typography>{t('support.ask_admin')}</Typography>
          <DocsLink page="index">{t('support.read_docs')}</DocsLink>
        </Stack>
      </Paper>
    </>
  );
}
