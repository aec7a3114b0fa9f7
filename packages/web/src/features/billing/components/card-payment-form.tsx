import type { BillingCycle } from '@flotilla/model';
import { Box, Tooltip, Typography } from '@mui/material';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useCaptcha } from '../../../components/captcha';
import { FormDialog } from '../../../components/form-dialog';
import { TextInput } from '../../../components/form-fields';
import { useNotify } from '../../../lib/notify';
import { createSetupIntent, setCompanyName, useUpdateBillingInfo } from '../api/billing-api';
import { setupReturnUrl } from '../billing-view';
import { ADDRESS_FIELD_MAX } from '../payment-form';
import { ADDRESS_ELEMENT_OPTIONS, ELEMENTS_OPTIONS, loadStripe, type StripeClient, type StripeElements } from '../stripe-js';

/**
 * Spec 3 §4 payment return flow / §5 payment form with the card provider: Stripe's payment and
 * address elements (deferred setup intent in USD for off-session use), the sign-up captcha when
 * configured, company_name patched before setup, then the setup intent confirmed with a return
 * URL that carries the intended plan. Without a redirect, the method is saved at once.
 */
export function CardPaymentForm({
  orgId,
  publishableKey,
  scriptUrl,
  companyName,
  then,
  onSaved,
  onClose,
}: {
  orgId: number;
  publishableKey: string;
  scriptUrl: string | null;
  companyName: string | null;
  then: { code: string; cycle: BillingCycle } | null;
  onSaved: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const captcha = useCaptcha();
  const update = useUpdateBillingInfo(orgId);
  const paymentBox = useRef<HTMLDivElement>(null);
  const addressBox = useRef<HTMLDivElement>(null);
  const stripe = useRef<{ client: StripeClient; elements: StripeElements } | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [company, setCompany] = useState(companyName ?? '');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let cancelled = false;
    const mounted: Array<{ destroy(): void }> = [];
    if (!scriptUrl) {
      setState('failed');
      return;
    }
    loadStripe(scriptUrl).then(
      (Stripe) => {
        if (cancelled || !paymentBox.current || !addressBox.current) return;
        const client = Stripe(publishableKey);
        const elements = client.elements(ELEMENTS_OPTIONS);
        const payment = elements.create('payment');
        const address = elements.create('address', ADDRESS_ELEMENT_OPTIONS);
        payment.mount(paymentBox.current);
        address.mount(addressBox.current);
        mounted.push(payment, address);
        stripe.current = { client, elements };
        setState('ready');
      },
      () => {
        if (!cancelled) setState('failed');
      },
    );
    return () => {
      cancelled = true;
      for (const element of mounted) element.destroy();
      stripe.current = null;
    };
  }, [publishableKey, scriptUrl]);

  const captchaAnswer = captcha.response();
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const loaded = stripe.current;
    if (!loaded) {
      notify.error(t('billing.errors.form_not_ready'));
      return;
    }
    setBusy(true);
    try {
      const checked = await loaded.elements.submit();
      if (checked.error) {
        notify.error(checked.error.message ?? t('billing.errors.request'));
        return;
      }
      const name = company.trim().slice(0, ADDRESS_FIELD_MAX);
      if (name && name !== companyName) await setCompanyName(orgId, name);
      const intent = await createSetupIntent(orgId, captchaAnswer);
      if (!intent?.client_secret) {
        notify.error(t('billing.errors.client_secret'));
        return;
      }
      const result = await loaded.client.confirmSetup({
        elements: loaded.elements,
        clientSecret: intent.client_secret,
        confirmParams: { return_url: setupReturnUrl(window.location.href, then) },
        redirect: 'if_required',
      });
      if (result.error || !result.setupIntent) {
        notify.error(result.error?.message ?? t('billing.errors.request'));
        return;
      }
      await update.mutateAsync({ token_type: 'setup_intent', token_id: result.setupIntent.id });
      notify.success(t('billing.payment.updated'));
      onSaved();
    } catch (err) {
      notify.error(err);
    } finally {
      setBusy(false);
      captcha.reset();
    }
  };

  const blocked = state !== 'ready' || captchaAnswer === null;
  return (
    <FormDialog
      title={t('billing.form.title')}
      submitLabel={t('billing.form.submit')}
      submitting={busy}
      submitDisabled={blocked}
      onSubmit={(e) => void submit(e)}
      onClose={onClose}
      maxWidth="md"
    >
      {state === 'failed' && (
        <Typography color="error" role="alert">
          {t('billing.errors.billing_api')}
        </Typography>
      )}
      {state === 'loading' && <Typography color="text.secondary">{t('billing.form.card_loading')}</Typography>}
      <TextInput
        id="billing-card-company"
        label={t('billing.form.company')}
        autoComplete="organization"
        value={company}
        inputProps={{ maxLength: ADDRESS_FIELD_MAX }}
        onChange={(e) => setCompany(e.target.value)}
      />
      <Box ref={addressBox} />
      <Box ref={paymentBox} />
      {captcha.element}
      {state === 'ready' && captchaAnswer === null && (
        <Tooltip title={t('billing.errors.recaptcha')}>
          <Typography variant="body2" color="text.secondary" tabIndex={0}>
            {t('billing.errors.recaptcha')}
          </Typography>
        </Tooltip>
      )}
    </FormDialog>
  );
}
