import { adminReasonProblem, creditGrantQuantityProblem } from '@flotilla/model';
import { Typography } from '@mui/material';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { FormDialog } from '../../../components/form-dialog';
import { TextInput } from '../../../components/form-fields';
import { errorMessage } from '../../../lib/errors';
import { ruleCheck } from '../../../lib/form-rules';
import { useMutationForm } from '../../../lib/use-mutation-form';
import { ReasonInput } from './reason-input';
import { useGrantCredits, type AdminCreditOrganization } from '../api/credits';

const quantityOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

/**
 * Grant complimentary credits (platform administrators): a quantity and a reason, checked by the
 * model's rules as the server checks them; POST /admin/v1/billing/organizations/{id}/credits.
 */
export function GrantCreditsDialog({ organization, onClose }: { organization: AdminCreditOrganization; onClose: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const grant = useGrantCredits();
  const { form, onSubmit, submitting, fieldError } = useMutationForm({
    schema: z.object({
      quantity: z.string().check(ruleCheck((v: string) => creditGrantQuantityProblem(quantityOf(v)))),
      reason: z.string().check(ruleCheck(adminReasonProblem)),
    }),
    defaultValues: { quantity: '', reason: '' },
    submit: (v) => grant.mutateAsync({ organizationId: organization.id, quantity: quantityOf(v.quantity), reason: v.reason.trim() }),
    success: t('admin.credits.granted', { organization: organization.name }),
    onSuccess: onClose,
    onError: (err) => {
      form.setError('root.server', { message: errorMessage(err, t) });
      return true;
    },
  });
  const rootError = form.formState.errors.root?.server?.message;
  return (
    <FormDialog title={t('admin.credits.grant_title', { organization: organization.name })} submitLabel={t('admin.credits.grant')} form={{ onSubmit, submitting }} onClose={onClose}>
      <Typography color="text.secondary">{t('admin.credits.grant_body')}</Typography>
      <TextInput {...form.register('quantity')} id={`${id}-quantity`} label={t('admin.credits.quantity')} error={fieldError('quantity')} inputProps={{ inputMode: 'numeric', maxLength: 12 }} autoFocus />
      <ReasonInput {...form.register('reason')} id={id} error={fieldError('reason')} />
      {!!rootError && (
        <Typography role="alert" color="error">
          {rootError}
        </Typography>
      )}
    </FormDialog>
  );
}
