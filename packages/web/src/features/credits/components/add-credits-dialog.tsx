import { CREDIT_EXPIRY_YEARS, CREDIT_PURCHASE_MAX, DEFAULT_CREDIT_PURCHASE_ERROR, formatCents } from '@flotilla/model';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Step, StepLabel, Stepper, Typography } from '@mui/material';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { TextInput } from '../../../components/form-fields';
import { useNotify } from '../../../lib/notify';
import { paths } from '../../../lib/paths';
import { usePurchaseCredits } from '../api/credits';
import { isContactSalesTotal, parseCreditQuantity } from '../credits-rules';
import '../i18n';

interface Props {
  organizationId: number;
  featureId: number;
  /** Cents per credit (the plan's credits add-on). */
  unitCents: number;
  /** The quantity to start with (the runway calculator's answer), else 1. */
  initialQuantity?: number;
  onClose: () => void;
}

/**
 * Spec 3 §4 credits purchase: step 0 quantity (Next), step 1 confirm (Go back, Pay now), step 2
 * success ('Purchase more credits' resets to step 0 with quantity 1). At or over the
 * contact-sales total the button is 'Contact sales'. A failed purchase shows its error_message
 * and closes.
 */
export default function AddCreditsDialog({ organizationId, featureId, unitCents, initialQuantity, onClose }: Props) {
  const { t } = useTranslation();
  const notify = useNotify();
  const titleId = useId();
  const [step, setStep] = useState(0);
  const [quantity, setQuantity] = useState(initialQuantity && initialQuantity > 0 ? Math.min(initialQuantity, CREDIT_PURCHASE_MAX) : 1);
  const [manual, setManual] = useState(false);
  const purchase = usePurchaseCredits(organizationId);
  const busy = purchase.isPending;
  const total = quantity * unitCents;
  const contactSales = isContactSalesTotal(total);

  const pay = async () => {
    try {
      const result = await purchase.mutateAsync({ featureId, quantity });
      if (result.payment_status === 'failed') {
        notify.error(new Error(result.error_message || DEFAULT_CREDIT_PURCHASE_ERROR));
        onClose();
        return;
      }
      setManual(result.payment_status === 'manually invoiced');
      setStep(2);
    } catch (err) {
      notify.error(err);
      onClose();
    }
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{t('credits.dialog_title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Stepper activeStep={step} aria-label={t('credits.dialog_steps')}>
            {[t('credits.step_quantity'), t('credits.step_confirm'), t('common.done')].map((label) => (
              <Step key={label}>
                <StepLabel>{label}</StepLabel>
              </Step>
            ))}
          </Stepper>
          {step === 0 && (
            <>
              <TextInput
                id="add-credits-quantity"
                label={t('credits.quantity')}
                value={quantity === 0 ? '' : String(quantity)}
                onChange={(e) => setQuantity(parseCreditQuantity(e.target.value))}
                helperText={t('credits.quantity_hint', { max: CREDIT_PURCHASE_MAX.toLocaleString('en-US') })}
                inputProps={{ inputMode: 'numeric', autoComplete: 'off' }}
                autoFocus
                disabled={busy}
              />
              <Typography color="text.secondary">{t('credits.unit_price', { price: formatCents(unitCents) })}</Typography>
              <Typography data-testid="add-credits-total">{t('credits.total', { total: formatCents(total) })}</Typography>
              {contactSales && <Alert severity="info">{t('credits.contact_sales_hint')}</Alert>}
            </>
          )}
          {step === 1 && (
            <Typography>{t('credits.confirm_text', { count: quantity.toLocaleString('en-US'), total: formatCents(total), years: CREDIT_EXPIRY_YEARS })}</Typography>
          )}
          {step === 2 && (
            <Alert severity="success">
              {t(manual ? 'credits.success_manual' : 'credits.success', { count: quantity.toLocaleString('en-US') })}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        {step === 0 && (
          <>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            {contactSales ? (
              <Button variant="contained" component={RouterLink} to={paths.support()}>
                {t('credits.contact_sales')}
              </Button>
            ) : (
              <Button variant="contained" disabled={quantity === 0 || busy} onClick={() => setStep(1)}>
                {t('credits.next')}
              </Button>
            )}
          </>
        )}
        {step === 1 && (
          <>
            <Button onClick={() => setStep(0)} disabled={busy}>
              {t('credits.go_back')}
            </Button>
            <Button variant="contained" loading={busy} onClick={() => void pay()}>
              {t('credits.pay_now')}
            </Button>
          </>
        )}
        {step === 2 && (
          <>
            <Button
              onClick={() => {
                setQuantity(1);
                setStep(0);
              }}
            >
              {t('credits.purchase_more')}
            </Button>
            <Button variant="contained" onClick={onClose}>
              {t('common.close')}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
