import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { errorStatus } from '../lib/errors';
import { useNotify } from '../lib/notify';
import { FormDialog } from './form-dialog';
import { TextInput } from './form-fields';

export interface NameDialogProps {
  title: string;
  submitLabel: string;
  cancelLabel: string;
  label: string;
  inputId: string;
  requiredMessage: string;
  autoComplete?: string;
  /** Spec 2 §5: a rename dialog defaults to the current name. */
  defaultName?: string;
  /** Saves the trimmed name; an unchanged default closes without saving. */
  onSave: (name: string) => Promise<void>;
  onClose: () => void;
}

/**
 * The one dialog for creating or renaming something by name (organizations, teams). Names
 * are unique case-insensitively (spec 1 §5); the server answers 409, shown under the field.
 */
export function NameDialog(props: NameDialogProps) {
  const { t } = useTranslation();
  const notify = useNotify();
  const schema = z.object({ name: z.string().check(z.trim(), z.minLength(1, props.requiredMessage), z.maxLength(100)) });
  const { register, handleSubmit, formState, setError } = useForm<z.infer<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { name: props.defaultName ?? '' },
  });

  const onSubmit = handleSubmit(async ({ name }) => {
    if (props.defaultName !== undefined && name === props.defaultName) return props.onClose();
    try {
      await props.onSave(name);
    } catch (err) {
      if (errorStatus(err) === 409) setError('name', { message: t('already_used') });
      else notify.error(err);
    }
  });

  return (
    <FormDialog
      open
      title={props.title}
      submitLabel={props.submitLabel}
      cancelLabel={props.cancelLabel}
      submitting={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={props.onClose}
    >
      <TextInput
        {...register('name')}
        id={props.inputId}
        label={props.label}
        autoComplete={props.autoComplete ?? 'off'}
        autoFocus
        error={formState.errors.name?.message}
      />
    </FormDialog>
  );
}
