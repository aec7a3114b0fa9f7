import { Button, Paper, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { RedirectWithError } from '../../components/redirect-with-error';
import { parseRouteId } from '../../lib/route-id';
import { paths } from '../../lib/paths';

/** /orgs/{orgId}/credits (spec 3): says that credits need billing, which this installation does not have. */
export function OrganizationCreditsRoute() {
  const { t } = useTranslation();
  const id = parseRouteId(useParams().orgId);
  if (id === undefined) return <RedirectWithError to={paths.organizations()} message={t('invalid_id_passed_in_url')} />;
  return (
    <>
      <PageHeader title={t('org_summary.credits_title')} />
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Typography gutterBottom>{t('org_summary.credits_unavailable')}</Typography>
        <Button component={RouterLink} to={paths.organization(id)} variant="outlined">
          {t('org_summary.back_to_organization')}
        </Button>
      </Paper>
    </>
  );
}
