import { Button, Typography } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRemoveBillingInfo, type PaymentMethod } from '../api/billing-api';
import { addressLines, paymentMethodText } from '../payment-method-text';
import { BillingCard, CardStatus } from './billing-card';

const ConfirmDialog = lazy(async () => ({ default: (await import('../../../components/confirm-dialog')).ConfirmDialog }));

/** Spec 3 §2 payment method (anchor #payment-method): address and method; remove (confirmed), update, add. */
export function PaymentMethodCard({
  orgId,
  info,
  onEdit,
}: {
  orgId: number;
  info: { data: PaymentMethod | null | undefined; isError: boolean };
  onEdit: () => void;
}) {
  const { t } = useTranslation();
  const remove = useRemoveBillingInfo(orgId);
  const [confirming, setConfirming] = useState(false);
  const method = info.data;
  return (
    <BillingCard
      id="payment-method"
      title={t('billing.payment.heading')}
      actions={
        info.data === undefined ? undefined : method ? (
          <>
            <Button onClick={onEdit}>{t('billing.payment.update')}</Button>
            <Button color="error" onClick={() => setConfirming(true)}>
              {t('common.remove')}
            </Button>
          </>
        ) : (
          <Button variant="contained" onClick={onEdit}>
            {t('billing.payment.add')}
          </Button>
        )
      }
    >
      {info.isError ? (
        <CardStatus error>{t('billing.errors.info')}</CardStatus>
      ) : info.data === undefined ? (
        <CardStatus>{t('billing.loading')}</CardStatus>
      ) : !method ? (
        <CardStatus>{t('billing.payment.none')}</CardStatus>
      ) : (
        <>
          <Typography data-testid="payment-method">{paymentMethodText(method, t)}</Typography>
          {addressLines(method).length > 0 && (
            <>
              <Typography variant="subtitle2" component="h3" sx={{ mt: 1 }}>
                {t('billing.payment.address')}
              </Typography>
              <Typography component="address" sx={{ fontStyle: 'normal', whiteSpace: 'pre-line' }}>
                {addressLines(method).join('\n')}
              </Typography>
            </>
          )}
        </>
      )}
      {confirming && (
        <Suspense fallback={null}>
          <ConfirmDialog
            title={t('billing.payment.remove_title')}
            body={t('billing.payment.remove_body')}
            confirmLabel={t('common.remove')}
            onConfirm={() => remove.mutateAsync()}
            success={t('billing.payment.removed')}
            onClose={() => setConfirming(false)}
          />
        </Suspense>
      )}
    </BillingCard>
  );
}
