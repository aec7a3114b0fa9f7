import { supportAccessDefault } from '@flotilla/model';
import { useState, type FormEvent } from 'react';
import { fromDateTimeLocal, toDateTimeLocal } from '../lib/datetime-local';
import { FormDialog } from './form-dialog';
import { TextInput } from './form-fields';

interface Props {
  /** The feature's strings: dialog title, buttons, field label, and the two date errors. */
  labels: { title: string; submit: string; cancel: string; until: string; required: string; future: string };
  inputId: string;
  onGrant: (until: Date) => Promise<void>;
  onClose: () => void;
}

/** Grant support access (fleets and devices): a date in the future, 5 days ahead by default (spec 2 §5). */
export function GrantSupportDialog({ labels, inputId, onGrant, onClose }: Props) {
  const [value, setValue] = useState(() => toDateTimeLocal(supportAccessDefault(new Date())));
  const [busy, setBusy] = useState(false);
  const date = fromDateTimeLocal(value);
  const error = !date ? labels.required : date.getTime() <= Date.now() ? labels.future : undefined;
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
      title={labels.title}
      submitLabel={labels.submit}
      cancelLabel={labels.cancel}
      submitting={busy}
      submitDisabled={!!error}
      onSubmit={(e) => void onSubmit(e)}
      onClose={onClose}
    >
      <TextInput
        id={inputId}
        type="datetime-local"
        label={labels.until}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        inputProps={{ min: toDateTimeLocal(new Date()) }}
        error={error}
      />
    </FormDialog>
  );
}
