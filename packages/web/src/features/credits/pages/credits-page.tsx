import { CREDIT_EXPIRY_YEARS } from '@flotilla/model';
import { Alert, Box, Button, Paper, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { FullPageError, FullPageSpinner } from '../../../components/full-page-status';
import { PageHeader } from '../../../components/page-header';
import { RedirectWithError } from '../../../components/redirect-with-error';
import { organizationDeviceCountQueryOptions, organizationPlanQueryOptions, planSupportsCredits } from '../../../lib/billing';
import { paths } from '../../../lib/paths';
import { useCreditBundles, useCreditNotification, useCreditsFeature, useHasPaymentMethod } from '../api/credits';
import { CreditNotificationsCard } from '../components/credit-notifications-card';
import { PurchaseHistory } from '../components/purchase-history';
import { RunwayCalculator } from '../components/runway-calculator';
import { creditsSummaryAction } from '../credits-rules';
import '../i18n';

// The purchase dialog loads when it is opened.
const AddCreditsDialog = lazy(() => import('../components/add-credits-dialog'));

/** Billing off (docs/billing.md): the page says so and nothing else. */
export function CreditsBillingOff({ organizationId }: { organizationId: number }) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('credits.title')} />
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Typography gutterBottom>{t('credits.billing_off')}</Typography>
        <Button component={RouterLink} to={paths.organization(organizationId)} variant="outlined">
          {t('credits.back_to_organization')}
        </Button>
      </Paper>
    </>
  );
}

/** Spec 3 §6: without billing access, to /orgs with the reason. */
export function CreditsNoAccess() {
  const { t } = useTranslation();
  return <RedirectWithError to={paths.organizations()} message={t('credits.no_access')} />;
}

/** /orgs/{orgId}/credits (spec 3 §2): summary, purchase history, runway calculator, notifications. */
export function CreditsPage({ organizationId }: { organizationId: number }) {
  const { t } = useTranslation();
  const plan = useQuery(organizationPlanQueryOptions(organizationId));
  const devices = useQuery(organizationDeviceCountQueryOptions(organizationId));
  const bundles = useCreditBundles(organizationId);
  const notification = useCreditNotification(organizationId);
  const feature = useCreditsFeature();
  const paymentMethod = useHasPaymentMethod(organizationId);
  const [buying, setBuying] = useState<{ quantity: number } | null>(null);

  const queries = [plan, devices, bundles, notification, feature, paymentMethod];
  if (queries.some((q) => q.isError)) {
    return <FullPageError message={t('credits.load_failed')} onRetry={() => queries.forEach((q) => void q.refetch())} />;
  }
  if (!plan.data || devices.data === undefined || !bundles.data || notification.data === undefined || feature.data === undefined || paymentMethod.data === undefined) {
    return <FullPageSpinner />;
  }
  const { balance } = bundles.data;
  const supportsCredits = planSupportsCredits(plan.data.code);
  const action = creditsSummaryAction({ supportsCredits, hasPaymentMethod: paymentMethod.data });
  const unitCents = plan.data.creditUnitCents;
  const canBuy = action === 'add-credits' && feature.data !== null && unitCents !== null;

  return (
    <>
      <PageHeader title={t('credits.title')} />
      <Stack spacing={3}>
        <Paper variant="outlined" sx={{ p: 3 }} component="section" aria-labelledby="credits-summary-title">
          <Typography variant="h6" component="h2" id="credits-summary-title">
            {t('credits.summary_title')}
          </Typography>
          <Typography variant="h3" component="p" data-testid="credits-balance" sx={{ my: 1 }}>
            {balance.toLocaleString('en-US')}
          </Typography>
          <Typography color="text.secondary">{t('credits.summary_plan', { plan: plan.data.title })}</Typography>
          <Typography color="text.secondary" gutterBottom>
            {t('credits.summary_hint', { years: CREDIT_EXPIRY_YEARS })}
          </Typography>
          <Box sx={{ mt: 2 }}>
            {action === 'add-credits' && (
              <>
                <Button variant="contained" disabled={!canBuy} onClick={() => setBuying({ quantity: 1 })}>
                  {t('credits.add_credits')}
                </Button>
                {unitCents === null && <Alert severity="warning" sx={{ mt: 2 }}>{t('credits.price_unknown')}</Alert>}
              </>
            )}
            {action === 'add-payment-method' && (
              <>
                <Typography gutterBottom>{t('credits.add_payment_method_hint')}</Typography>
                <Button variant="contained" component={RouterLink} to={`${paths.organization(organizationId, 'billing')}#payment-method`}>
                  {t('credits.add_payment_method')}
                </Button>
              </>
            )}
            {action === 'upgrade-plan' && (
              <>
                <Typography gutterBottom>{t('credits.upgrade_plan_hint')}</Typography>
                <Button variant="contained" component={RouterLink} to={`${paths.organization(organizationId, 'billing')}#billing-plans`}>
                  {t('credits.upgrade_plan')}
                </Button>
              </>
            )}
          </Box>
        </Paper>
        <PurchaseHistory bundles={bundles.data.bundles} />
        <RunwayCalculator
          currentDevices={devices.data}
          includedDevices={plan.data.includedDevices}
          balance={balance}
          onBuy={canBuy ? (quantity) => setBuying({ quantity }) : undefined}
        />
        <CreditNotificationsCard organizationId={organizationId} featureId={feature.data} notification={notification.data} deviceCount={devices.data} />
      </Stack>
      {buying && canBuy && feature.data !== null && unitCents !== null && (
        <Suspense fallback={null}>
          <AddCreditsDialog organizationId={organizationId} featureId={feature.data} unitCents={unitCents} initialQuantity={buying.quantity} onClose={() => setBuying(null)} />
        </Suspense>
      )}
    </>
  );
}
