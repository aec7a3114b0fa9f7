import { DialogContentText } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { errorMessage } from '../lib/errors';
import { useMutationForm } from '../lib/use-mutation-form';
import { FormDialog } from './form-dialog';
import { TextInput } from './form-fields';

interface Props {
  title: string;
  body: string;
  submitLabel: string;
  label: string;
  inputId: string;
  /** Said under the field when it is left empty. */
  requiredMessage: string;
  onSubmit: (password: string) => Promise<unknown>;
  success?: string;
  onSuccess: () => void;
  /** A refusal is said under the field (a wrong password) rather than toasted. */
  errorUnderField?: boolean;
  maxWidth?: 'xs' | 'sm';
  onClose: () => void;
}

/** A dialog that asks for the user's current password (identity check, turning two-factor off; spec 1 §4). */
export function PasswordDialog({ title, body, submitLabel, label, inputId, requiredMessage, onSubmit, success, onSuccess, errorUnderField = false, maxWidth, onClose }: Props) {
  const { t } = useTranslation();
  const { form, ...dialog } = useMutationForm({
    schema: z.object({ password: z.string().check(z.minLength(1, requiredMessage)) }),
    defaultValues: { password: '' },
    submit: ({ password }) => onSubmit(password),
    success,
    onSuccess,
    onError: (err) => {
      if (!errorUnderField) return false;
      form.setError('password', { message: errorMessage(err, t) });
      return true;
    },
  });
  return (
    <FormDialog form={dialog} title={title} submitLabel={submitLabel} maxWidth={maxWidth} onClose={onClose}>
      <DialogContentText>{body}</DialogContentText>
      <TextInput {...form.register('password')} id={inputId} type="password" label={label} autoComplete="current-password" autoFocus error={dialog.fieldError('password')} />
    </FormDialog>
  );
}
