import { FREE_DEVICE_ALLOWANCE, formatCents, monthlyCost, type BillingCycle, type CataloguePlan } from '@flotilla/model';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Link, Stack } from '@mui/material';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { TextInput } from '../../../components/form-fields';
import { paths } from '../../../lib/paths';
import type { proposalView } from '../billing-view';
import { useDebouncedAction } from '../use-debounced-action';

/** The most feedback a downgrade sends (a bounded request). */
export const PLAN_CHANGE_REASON_MAX = 2000;

const CONFIRM_KEYS = { 'Pay now': 'billing.change.pay_now', Confirm: 'billing.change.confirm', Next: 'billing.change.next', 'Contact sales': 'billing.plans.contact_sales' } as const;

/**
 * Spec 3 §4 change-plan confirmation: the target and its price; a downgrade's optional
 * feedback; the free plan blocked by devices (warning, link to the fleets, 'Contact sales');
 * bank debit to a paid plan shows the NACHA terms first ('Next'). The button is debounced.
 */
export function ChangePlanDialog({
  orgId,
  target,
  cycle,
  view,
  seller,
  contactSalesHref,
  onConfirm,
  onClose,
}: {
  orgId: number;
  target: CataloguePlan;
  cycle: BillingCycle;
  view: ReturnType<typeof proposalView>;
  seller: string;
  contactSalesHref: string;
  onConfirm: (reason: string | undefined) => Promise<boolean>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const [step, setStep] = useState<'confirm' | 'terms'>('confirm');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);

  const change = async () => {
    setBusy(true);
    try {
      if (await onConfirm(reason.trim() || undefined)) onClose();
    } finally {
      setBusy(false);
    }
  };
  const onPrimary = useDebouncedAction(() => {
    if (busy) return;
    if (view.freeBlocked) {
      window.location.assign(contactSalesHref);
      return;
    }
    if (step === 'confirm' && view.termsNeeded) {
      setStep('terms');
      return;
    }
    void change();
  });

  const label = step === 'terms' ? t('billing.nacha.accept') : t(CONFIRM_KEYS[view.confirmLabel]);
  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{step === 'terms' ? t('billing.nacha.title') : t('billing.change.title', { plan: target.title })}</DialogTitle>
      <DialogContent>
        {step === 'terms' ? (
          <DialogContentText>{t('billing.nacha.body', { seller })}</DialogContentText>
        ) : (
          <Stack spacing={2} sx={{ pt: 1 }}>
            <DialogContentText>
              {t('billing.change.summary', {
                plan: target.title,
                cycle: t(cycle === 'annual' ? 'billing.change.cycle_annual' : 'billing.change.cycle_monthly'),
                price: formatCents(monthlyCost(target, cycle)),
              })}
            </DialogContentText>
            {view.freeBlocked && (
              <Alert severity="warning">
                {t('billing.change.free_blocked', { count: FREE_DEVICE_ALLOWANCE })}{' '}
                <Link component={RouterLink} to={paths.organization(orgId, 'fleets')}>
                  {t('billing.change.go_to_fleets')}
                </Link>
              </Alert>
            )}
            {view.lowersOperators && !view.freeBlocked && <Alert severity="info">{t('billing.change.lowers_operators', { plan: target.title })}</Alert>}
            {view.downgrade && !view.freeBlocked && (
              <TextInput
                id="plan-change-reason"
                label={t('billing.change.feedback')}
                multiline
                minRows={3}
                value={reason}
                onChange={(e) => setReason(e.target.value.slice(0, PLAN_CHANGE_REASON_MAX))}
                inputProps={{ maxLength: PLAN_CHANGE_REASON_MAX }}
              />
            )}
          </Stack>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={busy}>
          {t('common.cancel')}
        </Button>
        <Button variant="contained" loading={busy} onClick={onPrimary}>
          {label}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
