import { Alert, Box, Button, Stack } from '@mui/material';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../lib/paths';
import { useBillingStatus } from '../api/billing-status';
import { billingBanners, dismiss, forgetClearedDismissals, isDismissed, type BillingBanner } from '../banner-rules';
import '../i18n';

const FrozenDevicesDialog = lazy(() => import('./frozen-devices-dialog'));

/**
 * Spec 3 §4/§8 banners for one organization: past due (warning, error with the countdown,
 * frozen), free allowance exceeded with its frozen devices, more devices than the plan
 * includes, credits below the threshold. Users with billing access get a link to act; others
 * are told to contact the administrators. Dismissals are kept in local storage.
 */
export default function BillingBannersPanel({ organizationId }: { organizationId: number }) {
  const { t } = useTranslation();
  const status = useBillingStatus(organizationId);
  const [, setVersion] = useState(0);
  const [dialog, setDialog] = useState(false);
  const banners = useMemo(() => (status ? billingBanners(status.facts, new Date()) : []), [status]);
  useEffect(() => {
    if (status) forgetClearedDismissals(localStorage, organizationId, banners);
  }, [status, banners, organizationId]);
  if (!status) return null;
  const visible = banners.filter((b) => !isDismissed(localStorage, organizationId, b));
  if (visible.length === 0) return null;
  const billingPath = paths.organization(organizationId, 'billing');

  const action = (banner: BillingBanner) => {
    switch (banner.id) {
      case 'past-due-warning':
      case 'past-due-error':
      case 'frozen':
        return status.canAccessBilling ? (
          <Button component={RouterLink} to={`${billingPath}#payment-method`} color="inherit" size="small" variant="outlined">
            {t('billing_banners.update_billing')}
          </Button>
        ) : null;
      case 'free-allowance':
        return (
          <Button color="inherit" size="small" variant="outlined" onClick={() => setDialog(true)}>
            {t('billing_banners.free_allowance_details')}
          </Button>
        );
      case 'provisioned':
        return status.canAccessBilling ? (
          <Button component={RouterLink} to={`${billingPath}#billing-plans`} color="inherit" size="small" variant="outlined">
            {t('billing_banners.view_plan')}
          </Button>
        ) : null;
      case 'credits-threshold':
        return (
          <Button component={RouterLink} to={paths.organization(organizationId, 'credits')} color="inherit" size="small" variant="outlined">
            {t('billing_banners.add_credits')}
          </Button>
        );
    }
  };
  const text = (banner: BillingBanner) => {
    switch (banner.id) {
      case 'past-due-warning':
        return t('billing_banners.past_due_warning', { count: banner.days ?? 0 });
      case 'past-due-error':
        return t('billing_banners.past_due_error', { count: banner.days ?? 0, left: banner.daysUntilFrozen ?? 0 });
      case 'frozen':
        return t('billing_banners.frozen');
      case 'free-allowance':
        return t('billing_banners.free_allowance', { count: banner.deviceCount ?? 0, included: banner.included ?? 0, frozen: banner.frozenDevices ?? 0 });
      case 'provisioned':
        return t('billing_banners.provisioned', { count: banner.deviceCount ?? 0, included: banner.included ?? 0 });
      case 'credits-threshold':
        return t('billing_banners.credits_threshold', { balance: banner.balance ?? 0, threshold: banner.threshold ?? 0 });
    }
  };
  const pastDue = (b: BillingBanner) => b.id === 'past-due-warning' || b.id === 'past-due-error' || b.id === 'frozen';

  return (
    <Box component="section" aria-label={t('billing_banners.region')} sx={{ mb: 2 }}>
      <Stack spacing={1}>
        {visible.map((banner) => (
          <Alert
            key={banner.id}
            severity={banner.tone}
            data-banner={banner.id}
            action={
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                {action(banner)}
                {banner.dismissible && (
                  <Button
                    color="inherit"
                    size="small"
                    onClick={() => {
                      dismiss(localStorage, organizationId, banner, new Date());
                      setVersion((v) => v + 1);
                    }}
                  >
                    {t('billing_banners.dismiss')}
                  </Button>
                )}
              </Stack>
            }
          >
            {text(banner)}
            {pastDue(banner) && !status.canAccessBilling && (
              <>
                {' '}
                {t('billing_banners.contact_administrators')}
              </>
            )}
          </Alert>
        ))}
      </Stack>
      {dialog && (
        <Suspense fallback={null}>
          <FrozenDevicesDialog
            organizationId={organizationId}
            canAccessBilling={status.canAccessBilling}
            deviceCount={status.facts.deviceCount}
            onClose={() => setDialog(false)}
          />
        </Suspense>
      )}
    </Box>
  );
}
