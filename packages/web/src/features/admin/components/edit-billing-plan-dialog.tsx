import { formatCents } from '@flotilla/model';
import { Button, Checkbox, FormControlLabel, Typography } from '@mui/material';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { FormDialog } from '../../../components/form-dialog';
import { TextInput } from '../../../components/form-fields';
import { fromDateTimeLocal, toDateTimeLocal } from '../../../lib/datetime-local';
import { errorMessage } from '../../../lib/errors';
import { ruleCheck } from '../../../lib/form-rules';
import { useMutationForm } from '../../../lib/use-mutation-form';
import { dollarsToCents } from '../billing-prices';
import { useEditBillingPlan, type AdminBillingPlan, type BillingPlanEdit } from '../api/billing-plans';

const centsToDollars = (cents: number) => (cents / 100).toFixed(2);
const toLocal = (iso: string | null) => (iso ? toDateTimeLocal(new Date(iso)) : '');

/**
 * Edit one plan (platform administrators): title, prices, self-serve, validity dates. A price
 * change is confirmed on a second screen before it is saved (PATCH /admin/v1/billing/plans/{id}).
 */
export function EditBillingPlanDialog({ plan, onClose }: { plan: AdminBillingPlan; onClose: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const edit = useEditBillingPlan();
  const [confirming, setConfirming] = useState(false);
  const price = z.string().check(ruleCheck((v: string) => (dollarsToCents(v) === undefined ? t('admin.billing_plans.price_invalid') : undefined)));
  const { form, onSubmit, submitting, fieldError } = useMutationForm({
    schema: z.object({
      title: z.string().check(z.trim(), z.minLength(1, t('admin.billing_plans.title_required')), z.maxLength(255)),
      monthly: price,
      annual: price,
      selfServe: z.boolean(),
      from: z.string(),
      until: z.string(),
    }),
    defaultValues: {
      title: plan.title,
      monthly: centsToDollars(plan.monthly_price),
      annual: centsToDollars(plan.annual_price),
      selfServe: plan.can_self_serve,
      from: toLocal(plan.is_valid_from__date),
      until: toLocal(plan.is_valid_until__date),
    },
    submit: async (v) => {
      const from = fromDateTimeLocal(v.from);
      const until = fromDateTimeLocal(v.until);
      if (from && until && from >= until) {
        form.setError('until', { message: t('admin.billing_plans.dates_order') });
        return null;
      }
      const body: BillingPlanEdit = {
        title: v.title.trim(),
        monthly_price: dollarsToCents(v.monthly)!,
        annual_price: dollarsToCents(v.annual)!,
        can_self_serve: v.selfServe,
        is_valid_from__date: from?.toISOString() ?? null,
        is_valid_until__date: until?.toISOString() ?? null,
      };
      const pricesChanged = body.monthly_price !== plan.monthly_price || body.annual_price !== plan.annual_price;
      if (pricesChanged && !confirming) {
        setConfirming(true);
        return null;
      }
      return edit.mutateAsync({ id: plan.id, edit: body });
    },
    success: (saved) => (saved ? t('admin.billing_plans.saved', { code: saved.billing_code }) : undefined),
    onSuccess: (saved) => saved && onClose(),
    onError: (err) => {
      form.setError('root.server', { message: t('admin.billing_plans.save_failed', { reason: errorMessage(err, t) }) });
      setConfirming(false);
      return true;
    },
  });
  const rootError = form.formState.errors.root?.server?.message;
  const values = form.watch();
  const selfServe = form.register('selfServe');

  return (
    <FormDialog
      title={t('admin.billing_plans.edit_title', { code: plan.billing_code })}
      submitLabel={t('common.save')}
      form={{ onSubmit, submitting }}
      onClose={onClose}
      actions={
        confirming ? (
          <>
            <Button onClick={() => setConfirming(false)} disabled={submitting}>
              {t('admin.billing_plans.back')}
            </Button>
            <Button type="submit" variant="contained" loading={submitting}>
              {t('admin.billing_plans.confirm_prices')}
            </Button>
          </>
        ) : undefined
      }
    >
      {confirming ? (
        <Typography>
          {t('admin.billing_plans.confirm_body', {
            code: plan.billing_code,
            monthly: formatCents(dollarsToCents(values.monthly) ?? 0),
            annual: formatCents(dollarsToCents(values.annual) ?? 0),
          })}
        </Typography>
      ) : (
        <>
          <TextInput {...form.register('title')} id={`${id}-title`} label={t('admin.billing_plans.plan_title')} error={fieldError('title')} inputProps={{ maxLength: 255 }} />
          <TextInput {...form.register('monthly')} id={`${id}-monthly`} label={t('admin.billing_plans.monthly_dollars')} error={fieldError('monthly')} inputProps={{ inputMode: 'decimal', maxLength: 10 }} />
          <TextInput {...form.register('annual')} id={`${id}-annual`} label={t('admin.billing_plans.annual_dollars')} error={fieldError('annual')} inputProps={{ inputMode: 'decimal', maxLength: 10 }} />
          <FormControlLabel
            control={<Checkbox id={`${id}-self-serve`} inputRef={selfServe.ref} name={selfServe.name} onChange={selfServe.onChange} onBlur={selfServe.onBlur} defaultChecked={plan.can_self_serve} />}
            label={t('admin.billing_plans.self_serve')}
          />
          <TextInput {...form.register('from')} id={`${id}-from`} type="datetime-local" label={t('admin.billing_plans.valid_from')} error={fieldError('from')} />
          <TextInput {...form.register('until')} id={`${id}-until`} type="datetime-local" label={t('admin.billing_plans.valid_until')} error={fieldError('until')} />
        </>
      )}
      {!!rootError && (
        <Typography role="alert" color="error">
          {rootError}
        </Typography>
      )}
    </FormDialog>
  );
}
