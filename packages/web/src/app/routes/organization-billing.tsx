import { Button, Paper, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { RedirectWithError } from '../../components/redirect-with-error';
import { parseRouteId } from '../../lib/route-id';
import { paths } from '../../lib/paths';

/**
 * /orgs/{orgId}/billing — a placeholder until billing exists (spec 3). Frozen
 * organizations send their administrators here, so this page is exempt from that redirect.
 */
export function OrganizationBillingRoute() {
  const { t } = useTranslation();
  const id = parseRouteId(useParams().orgId);
  if (id === undefined) return <RedirectWithError to={paths.organizations()} message={t('invalid_id_passed_in_url')} />;
  return (
    <>
      <PageHeader title={t('org_summary.billing_title')} />
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Typography gutterBottom>{t('org_summary.billing_unavailable')}</Typography>
        <Button component={RouterLink} to={paths.organizations()} variant="outlined">
          {t('org_summary.back_to_orgs')}
        </Button>
      </Paper>
    </>
  );
}
