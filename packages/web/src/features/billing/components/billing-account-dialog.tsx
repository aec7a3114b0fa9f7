import { Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog';
import { TextInput } from '../../../components/form-fields';
import { useRunMutation } from '../../../lib/notify';
import { useUpdateBillingAccount } from '../api/billing-api';
import { readAccountForm } from '../account-form';

/** Spec 3 §2/§5 billing account edit: email required and valid, cc emails; submit disabled while empty. */
export function BillingAccountDialog({ orgId, email, ccEmails, onClose }: { orgId: number; email: string; ccEmails: string[]; onClose: () => void }) {
  const { t } = useTranslation();
  const update = useUpdateBillingAccount(orgId);
  const run = useRunMutation();
  const [emailValue, setEmail] = useState(email);
  const [cc, setCc] = useState(ccEmails.join(', '));
  const [error, setError] = useState<{ field: 'email' | 'cc'; message: string } | null>(null);
  const empty = emailValue.trim().length === 0;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const read = readAccountForm(emailValue, cc);
    if (!read.ok) {
      if (read.error === 'invalid') setError({ field: read.field, message: read.message });
      return;
    }
    setError(null);
    await run(() => update.mutateAsync(read.body), { success: t('billing.account.updated'), onSuccess: onClose });
  };

  return (
    <FormDialog
      title={t('billing.account.edit_title')}
      submitLabel={t('common.save')}
      submitting={update.isPending}
      onSubmit={(e) => void submit(e)}
      submitDisabled={empty}
      onClose={onClose}
    >
      <TextInput
        id="billing-account-email"
        label={t('billing.account.email')}
        type="email"
        autoComplete="email"
        required
        value={emailValue}
        onChange={(e) => {
          setEmail(e.target.value);
          setError(null);
        }}
        error={error?.field === 'email' ? error.message : undefined}
      />
      <TextInput
        id="billing-account-cc"
        label={t('billing.account.cc_emails')}
        value={cc}
        onChange={(e) => {
          setCc(e.target.value);
          setError(null);
        }}
        error={error?.field === 'cc' ? error.message : undefined}
        helperText={t('billing.account.cc_help')}
      />
      {empty && (
        <Typography role="status" variant="body2" color="text.secondary">
          {t('billing.account.fill_required')}
        </Typography>
      )}
    </FormDialog>
  );
}
