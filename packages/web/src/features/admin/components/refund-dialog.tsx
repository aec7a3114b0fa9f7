import { adminReasonProblem, formatCents } from '@flotilla/model';
import { Typography } from '@mui/material';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { FormDialog } from '../../../components/form-dialog';
import { errorMessage } from '../../../lib/errors';
import { ruleCheck } from '../../../lib/form-rules';
import { useMutationForm } from '../../../lib/use-mutation-form';
import { ReasonInput } from './reason-input';

/** What is refunded: a credit bundle or an invoice, with its amount (cents) and a name for it. */
export interface RefundTarget {
  what: string;
  amountCents: number;
  organization: string;
  run: (reason: string) => Promise<unknown>;
}

/**
 * The refund confirmation (platform administrators): it names the amount, asks for the reason
 * kept in the log, and shows the server's refusal as it says it. Full refunds only.
 */
export function RefundDialog({ target, onClose }: { target: RefundTarget; onClose: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const amount = formatCents(target.amountCents);
  const { form, onSubmit, submitting, fieldError } = useMutationForm({
    schema: z.object({ reason: z.string().check(ruleCheck(adminReasonProblem)) }),
    defaultValues: { reason: '' },
    submit: (v) => target.run(v.reason.trim()),
    success: t('admin.credits.refunded', { amount, what: target.what }),
    onSuccess: onClose,
    onError: (err) => {
      form.setError('root.server', { message: errorMessage(err, t) });
      return true;
    },
  });
  const rootError = form.formState.errors.root?.server?.message;
  return (
    <FormDialog
      title={t('admin.credits.refund_title', { amount })}
      submitLabel={t('admin.credits.refund_amount', { amount })}
      submitColor="error"
      form={{ onSubmit, submitting }}
      onClose={onClose}
    >
      <Typography>{t('admin.credits.refund_body', { amount, what: target.what, organization: target.organization })}</Typography>
      <ReasonInput {...form.register('reason')} id={id} error={fieldError('reason')} autoFocus />
      {!!rootError && (
        <Typography role="alert" color="error">
          {rootError}
        </Typography>
      )}
    </FormDialog>
  );
}
