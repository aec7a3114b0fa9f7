import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog';
import { TextInput } from '../../../components/form-fields';
import { fromDateTimeLocal, supportAccessDefault, toDateTimeLocal } from '../fleet-settings-rules';

interface Props {
  onGrant: (until: Date) => Promise<void>;
  onClose: () => void;
}

/** Spec 2 §5, §9: support access until a date-time in the future, 5 days ahead by default. */
export function GrantSupportDialog({ onGrant, onClose }: Props) {
  const { t } = useTranslation();
  const [value, setValue] = useState(() => toDateTimeLocal(supportAccessDefault(new Date())));
  const [busy, setBusy] = useState(false);
  const date = fromDateTimeLocal(value);
  const error = !date ? t('fleet_settings.support_date_required') : date.getTime() <= Date.now() ? t('fleet_settings.support_date_future') : undefined;
  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!date || error) return;
    setBusy(true);
    try {
      await onGrant(date);
    } finally {
      setBusy(false);
    }
  };
  return (
    <FormDialog
      open
      title={t('fleet_settings.support_grant_title')}
      submitLabel={t('fleet_settings.support_grant')}
      cancelLabel={t('fleet_settings.cancel')}
      submitting={busy}
      submitDisabled={!!error}
      onSubmit={(e) => void onSubmit(e)}
      onClose={onClose}
    >
      <TextInput
        id="support-access-until"
        type="datetime-local"
        label={t('fleet_settings.support_until')}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        inputProps={{ min: toDateTimeLocal(new Date()) }}
        error={error}
      />
    </FormDialog>
  );
}
