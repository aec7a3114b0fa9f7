import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { errorStatus } from '../lib/errors';
import { requiredText } from '../lib/form-rules';
import { useMutationForm } from '../lib/use-mutation-form';
import { FormDialog } from './form-dialog';
import { TextInput } from './form-fields';

export interface NameDialogProps<TResult> {
  title: string;
  submitLabel: string;
  label: string;
  inputId: string;
  requiredMessage: string;
  autoComplete?: string;
  /** Spec 2 §5: a rename dialog defaults to the current name. */
  defaultName?: string;
  /** Saves the trimmed name; an unchanged default closes without saving. */
  onSave: (name: string) => Promise<TResult>;
  /** The success toast for the saved name. */
  success: (name: string) => string;
  /** After the toast and the close (e.g. open what was created). */
  onSaved?: (result: TResult) => void;
  onClose: () => void;
}

/**
 * The one dialog for creating or renaming something by name (organizations, teams, devices).
 * Names are unique case-insensitively (spec 1 §5); the server answers 409, shown under the field.
 */
export function NameDialog<TResult>(props: NameDialogProps<TResult>) {
  const { t } = useTranslation();
  const unchanged = (name: string) => props.defaultName !== undefined && name === props.defaultName;
  const { form, ...dialog } = useMutationForm({
    schema: z.object({ name: requiredText(props.requiredMessage, 100) }),
    defaultValues: { name: props.defaultName ?? '' },
    submit: async ({ name }) => (unchanged(name) ? { saved: false as const } : { saved: true as const, name, result: await props.onSave(name) }),
    success: (r) => (r.saved ? props.success(r.name) : undefined),
    onSuccess: (r) => {
      props.onClose();
      if (r.saved) props.onSaved?.(r.result);
    },
    onError: (err) => {
      if (errorStatus(err) !== 409) return false;
      form.setError('name', { message: t('already_used') });
      return true;
    },
  });

  return (
    <FormDialog form={dialog} title={props.title} submitLabel={props.submitLabel} onClose={props.onClose}>
      <TextInput
        {...form.register('name')}
        id={props.inputId}
        label={props.label}
        autoComplete={props.autoComplete ?? 'off'}
        autoFocus
        error={dialog.fieldError('name')}
      />
    </FormDialog>
  );
}
