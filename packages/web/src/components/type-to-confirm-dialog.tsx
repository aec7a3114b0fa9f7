import { Alert } from '@mui/material';
import { z } from 'zod/mini';
import { useMutationForm } from '../lib/use-mutation-form';
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
  /** `common.cancel` unless the dialog names it otherwise. */
  cancelLabel?: string;
  inputId: string;
  onConfirm: () => Promise<unknown>;
  /**
   * The success toast. With it a failure is toasted too and the dialog stays open; without
   * it the caller reports the outcome itself.
   */
  success?: string;
  /** After the success toast (e.g. leave the page of what was deleted). */
  onSuccess?: () => void;
  /** After the error toast (e.g. close: the server's refusal is final). */
  onFailed?: () => void;
  onClose: () => void;
}

/** Spec 2 §5 destructive confirmation: type the given text; paste and drop are blocked. */
export function TypeToConfirmDialog(props: Props) {
  const { form, ...dialog } = useMutationForm({
    schema: z.object({ typed: z.string().check(z.refine((typed) => typed === props.expected)) }),
    defaultValues: { typed: '' },
    submit: () => props.onConfirm(),
    success: props.success,
    onSuccess: props.onSuccess,
    onError: () => void props.onFailed?.(),
  });
  const typed = form.watch('typed');
  const blocked = (e: { preventDefault: () => void }) => e.preventDefault();
  return (
    <FormDialog
      form={dialog}
      title={props.title}
      submitLabel={props.submitLabel}
      cancelLabel={props.cancelLabel}
      submitDisabled={typed !== props.expected}
      onClose={props.onClose}
    >
      <Alert severity="warning">{props.warning}</Alert>
      <TextInput
        {...form.register('typed')}
        id={props.inputId}
        label={props.label}
        onPaste={blocked}
        onDrop={blocked}
        autoComplete="off"
        autoFocus
        helperText={typed === '' ? props.emptyHint : props.hint}
      />
    </FormDialog>
  );
}
