import { Alert } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { FormDialog } from './form-dialog';
import { TextInput } from './form-fields';

interface Props {
  title: string;
  warning: string;
  /** What the user must type exactly (spec 2 §5: the affected count or a given string). */
  expected: string;
  label: string;
  hint: string;
  emptyHint: string;
  submitLabel: string;
  cancelLabel: string;
  inputId: string;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}

/** Spec 2 §5 destructive confirmation: type the given text; paste and drop are blocked. */
export function TypeToConfirmDialog(props: Props) {
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const matches = typed === props.expected;
  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!matches) return;
    setBusy(true);
    try {
      await props.onConfirm();
    } finally {
      setBusy(false);
    }
  };
  const blocked = (e: { preventDefault: () => void }) => e.preventDefault();
  return (
    <FormDialog
      open
      title={props.title}
      submitLabel={props.submitLabel}
      cancelLabel={props.cancelLabel}
      submitting={busy}
      submitDisabled={!matches}
      onSubmit={(e) => void onSubmit(e)}
      onClose={props.onClose}
    >
      <Alert severity="warning">{props.warning}</Alert>
      <TextInput
        id={props.inputId}
        label={props.label}
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
        onPaste={blocked}
        onDrop={blocked}
        autoComplete="off"
        autoFocus
        helperText={typed === '' ? props.emptyHint : props.hint}
      />
    </FormDialog>
  );
}
