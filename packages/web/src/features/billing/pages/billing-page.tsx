import '../i18n-billing';
import { CANCEL_TARGET, isPaidPlan, tierOf, type BillingCycle, type CataloguePlan } from '@flotilla/model';
import { Box, Button, Link, Stack } from '@mui/material';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import type { InstallConfig } from '../../../lib/dashboard-config';
import { errorStatus } from '../../../lib/errors';
import { useNotify } from '../../../lib/notify';
import {
  useBillingInfo,
  useCatalogue,
  useChangePlan,
  useInvoices,
  useOrganizationDeviceCount,
  usePlan,
  useUpdateBillingInfo,
  useUsage,
} from '../api/billing-api';
import { cycleOfInterval, freePlanBlocked, proposalFromParams, proposalView } from '../billing-view';
import { BillingAccountCard } from '../components/billing-account-card';
import { BillingCard, CardStatus } from '../components/billing-card';
import { InvoicesCard } from '../components/invoices-card';
import { PaymentMethodCard } from '../components/payment-method-card';
import { AddonsCard, CurrentPlanCard, NextBillCard, UsageCard } from '../components/plan-cards';
import { PlansTable } from '../components/plans-table';
import { DevicePricingTable, SeatPricingTable } from '../components/pricing-tables';

// The dialogs load when opened (the first-page budget).
const ChangePlanDialog = lazy(async () => ({ default: (await import('../components/change-plan-dialog')).ChangePlanDialog }));
const PaymentFormDialog = lazy(async () => ({ default: (await import('../components/payment-form-dialog')).PaymentFormDialog }));
const CardPaymentForm = lazy(async () => ({ default: (await import('../components/card-payment-form')).CardPaymentForm }));
const ConfirmDialog = lazy(async () => ({ default: (await import('../../../components/confirm-dialog')).ConfirmDialog }));

type Proposal = { code: string; cycle: BillingCycle };

/** The query parameters the page reads once and then drops (spec 3 §2). */
const RETURN_PARAMS = ['plan', 'cycle', 'setup-intent', 'setup_intent', 'setup_intent_client_secret', 'redirect_status', 'then-propose-plan-tier', 'then-propose-plan-cycle'];

/** /orgs/{orgId}/billing with billing on (spec 3 §2): the cards, the plans table and the plan-change flow (§4). */
export function BillingPage({ orgId, companyName, config }: { orgId: number; companyName: string | null; config: InstallConfig }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const plan = usePlan(orgId);
  const info = useBillingInfo(orgId);
  const invoices = useInvoices(orgId);
  const usage = useUsage(orgId);
  const catalogue = useCatalogue();
  const devices = useOrganizationDeviceCount(orgId);
  const changePlan = useChangePlan(orgId);
  const updateInfo = useUpdateBillingInfo(orgId);
  const [params, setParams] = useSearchParams();
  const [chosenCycle, setCycle] = useState<BillingCycle | null>(null);
  const [proposal, setProposal] = useState<Proposal | null>(null);
  // The payment form, and the plan to propose once a method is saved.
  const [paymentForm, setPaymentForm] = useState<{ then: Proposal | null } | null>(null);
  const [cancelling, setCancelling] = useState(false);

  const currentCode = plan.data?.code;
  const currentCycle = cycleOfInterval(plan.data?.intervalUnit);
  const cycle = chosenCycle ?? currentCycle;
  const plans = catalogue.data ?? [];
  const currentPlan = plans.find((p) => p.code === currentCode);
  const seller = config.billingSeller;
  const contactSalesHref = seller?.email ? `mailto:${seller.email}` : '/support';

  /** Spec 3 §4 step 1–3: no payment method → the form first, then the proposal; else the confirmation. */
  const choose = (target: Proposal) => {
    if (tierOf(target.code) !== 'free' && info.data === null) setPaymentForm({ then: target });
    else setProposal(target);
  };

  // `plan`/`cycle` propose a change on load; `setup-intent` is the return from card setup (§4).
  const handledParams = useRef(false);
  useEffect(() => {
    if (handledParams.current || !plan.data || !catalogue.data || info.data === undefined) return;
    // Stripe's own return parameter is `setup_intent`; the spec names it `setup-intent`.
    const setupIntent = params.get('setup-intent') ?? params.get('setup_intent');
    const fromQuery = proposalFromParams(params, 'plan', 'cycle');
    const afterSetup = proposalFromParams(params, 'then-propose-plan-tier', 'then-propose-plan-cycle');
    if (!setupIntent && !fromQuery) return;
    handledParams.current = true;
    setParams(
      (p) => {
        for (const k of RETURN_PARAMS) p.delete(k);
        return p;
      },
      { replace: true },
    );
    if (setupIntent) {
      void updateInfo.mutateAsync({ token_type: 'setup_intent', token_id: setupIntent }).then(
        () => {
          notify.success(t('billing.payment.updated'));
          if (afterSetup) setProposal(afterSetup);
        },
        (err: unknown) => notify.error(err),
      );
    } else if (fromQuery && catalogue.data.some((p) => p.code === fromQuery.code)) {
      choose(fromQuery);
    }
  });

  // #billing-plans / #payment-method: scroll there once the cards have drawn (spec 3 §2 anchors).
  const scrolled = useRef(false);
  const ready = !!plan.data && !!catalogue.data && info.data !== undefined;
  useEffect(() => {
    if (scrolled.current || !ready) return;
    scrolled.current = true;
    const id = window.location.hash.slice(1);
    if (id === 'billing-plans' || id === 'payment-method') document.getElementById(id)?.scrollIntoView();
  }, [ready]);

  const target = proposal ? plans.find((p) => p.code === proposal.code) : undefined;
  const view = target
    ? proposalView({ target, current: currentPlan, paymentType: info.data?.type, devices: { total: devices.data ?? 0, frozen: 0 } })
    : undefined;

  const change = async (reason: string | undefined): Promise<boolean> => {
    if (!proposal) return false;
    try {
      await changePlan.mutateAsync({ tier: proposal.code, cycle: proposal.cycle, ...(reason ? { planChangeReason: reason } : {}) });
      notify.success(t('billing.change.updated'));
      setCycle(null);
      return true;
    } catch (err) {
      // 402: the payment provider refused the charge; its message says why (the plan is unchanged).
      notify.error(errorStatus(err) === 402 ? err : t('billing.errors.update_plan'));
      return false;
    }
  };

  return (
    <>
      <PageHeader title={t('org_summary.billing_title')} />
      <Stack spacing={2}>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
          <CurrentPlanCard plan={plan} />
          <NextBillCard plan={plan} usage={usage} />
          <UsageCard usage={usage} />
          <AddonsCard plan={plan} />
          <InvoicesCard orgId={orgId} invoices={invoices} />
          <PaymentMethodCard orgId={orgId} info={info} onEdit={() => setPaymentForm({ then: null })} />
          <BillingAccountCard orgId={orgId} />
        </Box>
        <BillingCard id="billing-plans" title={t('billing.plans.heading')}>
          {catalogue.isError ? (
            <CardStatus error>{t('billing.errors.catalogue')}</CardStatus>
          ) : plan.isError ? (
            <CardStatus error>{t('billing.errors.plan')}</CardStatus>
          ) : !catalogue.data || !plan.data ? (
            <CardStatus>{t('billing.loading')}</CardStatus>
          ) : (
            <PlansTable
              plans={plans}
              current={{ code: plan.data.code, cycle: currentCycle }}
              cycle={cycle}
              onCycle={setCycle}
              onChoose={(p: CataloguePlan, c: BillingCycle) => choose({ code: p.code, cycle: c })}
              contactSalesHref={contactSalesHref}
              now={new Date()}
            />
          )}
        </BillingCard>
        {(currentPlan ?? plans[0]) && (
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
            <BillingCard title={t('billing.seats.heading')}>
              <SeatPricingTable plan={(currentPlan ?? plans[0])!} />
            </BillingCard>
            <BillingCard title={t('billing.devices.heading')}>
              <DevicePricingTable plans={plans} />
            </BillingCard>
          </Box>
        )}
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          {currentCode && isPaidPlan(currentCode) && (
            <Button color="error" variant="outlined" onClick={() => setCancelling(true)}>
              {t('billing.cancel.button')}
            </Button>
          )}
          {seller?.agreementUrl && (
            <Link href={seller.agreementUrl} target="_blank" rel="noopener noreferrer">
              {t('billing.agreement')}
            </Link>
          )}
        </Stack>
      </Stack>

      <Suspense fallback={null}>
        {paymentForm && config.stripePublishableKey && (
          <CardPaymentForm
            orgId={orgId}
            publishableKey={config.stripePublishableKey}
            scriptUrl={config.stripeJsUrl}
            companyName={companyName}
            then={paymentForm.then}
            onClose={() => setPaymentForm(null)}
            onSaved={() => {
              const then = paymentForm.then;
              setPaymentForm(null);
              if (then) setProposal(then);
            }}
          />
        )}
        {paymentForm && !config.stripePublishableKey && (
          <PaymentFormDialog
            orgId={orgId}
            current={info.data}
            companyName={companyName}
            onClose={() => setPaymentForm(null)}
            onSaved={() => {
              const then = paymentForm.then;
              setPaymentForm(null);
              if (then) setProposal(then);
            }}
          />
        )}
        {proposal && target && view && (
          <ChangePlanDialog
            orgId={orgId}
            target={target}
            cycle={proposal.cycle}
            view={view}
            seller={seller?.name ?? window.location.host}
            contactSalesHref={contactSalesHref}
            onConfirm={change}
            onClose={() => setProposal(null)}
          />
        )}
        {cancelling && (
          <ConfirmDialog
            title={t('billing.cancel.title')}
            body={t('billing.cancel.body')}
            confirmLabel={t('billing.cancel.button')}
            onConfirm={async () => {
              // Blocked by devices: the change dialog says why (spec 3 §4); otherwise change now.
              if (freePlanBlocked({ total: devices.data ?? 0, frozen: 0 })) {
                setCancelling(false);
                setProposal(CANCEL_TARGET);
                return;
              }
              try {
                await changePlan.mutateAsync({ tier: CANCEL_TARGET.code, cycle: CANCEL_TARGET.cycle });
                notify.success(t('billing.change.updated'));
              } catch {
                notify.error(t('billing.errors.update_plan'));
              }
              setCancelling(false);
            }}
            onClose={() => setCancelling(false)}
          />
        )}
      </Suspense>
    </>
  );
}
