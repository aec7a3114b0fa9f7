import { FREE_DEVICE_ALLOWANCE } from '@flotilla/model';
import { Alert, AlertTitle, Button } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../lib/paths';
import { useBillingStatus } from '../api/billing-status';
import '../i18n';

/**
 * Spec 3 §8 'free plan allowance reached', in the add-device dialog: the server refuses a
 * device past the free allowance (i18-plans), so the dialog says so first, with an upgrade
 * button for users with billing access and a word to ask an administrator otherwise.
 */
export default function AllowanceNotice({ organizationId }: { organizationId: number }) {
  const { t } = useTranslation();
  const status = useBillingStatus(organizationId);
  if (!status || !status.facts.isFreePlan || status.facts.deviceCount < FREE_DEVICE_ALLOWANCE) return null;
  const values = { count: status.facts.deviceCount, included: FREE_DEVICE_ALLOWANCE };
  return (
    <Alert
      severity="warning"
      data-testid="free-allowance-reached"
      action={
        status.canAccessBilling ? (
          <Button component={RouterLink} to={`${paths.organization(organizationId, 'billing')}#billing-plans`} color="inherit" size="small" variant="outlined">
            {t('billing_banners.upgrade')}
          </Button>
        ) : undefined
      }
    >
      <AlertTitle>{t('billing_banners.allowance_reached_title')}</AlertTitle>
      {t(status.canAccessBilling ? 'billing_banners.allowance_reached' : 'billing_banners.allowance_reached_contact', values)}
    </Alert>
  );
}
