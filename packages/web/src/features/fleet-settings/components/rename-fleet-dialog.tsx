import { fleetNameProblem } from '@flotilla/model';
import { Alert } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { FormDialog } from '../../../components/form-dialog';
import { TextInput } from '../../../components/form-fields';
import { errorMessage, errorStatus } from '../../../lib/errors';
import { ruleCheck } from '../../../lib/form-rules';
import { useMutationForm } from '../../../lib/use-mutation-form';

interface Props {
  currentName: string;
  onRename: (name: string) => Promise<void>;
  onClose: () => void;
}

/** Spec 2 §5: the rename dialog defaults to the current name and warns that containers restart. */
export function RenameFleetDialog({ currentName, onRename, onClose }: Props) {
  const { t } = useTranslation();
  const { form, ...dialog } = useMutationForm({
    // The model's name rules, shown as the user types; the current name is left as it is.
    schema: z.object({ name: z.string().check(ruleCheck((name: string) => (name === currentName ? undefined : fleetNameProblem(name)))) }),
    defaultValues: { name: currentName },
    mode: 'onChange',
    submit: async ({ name }) => (name === currentName ? undefined : (await onRename(name), name)),
    success: (name) => name && t('fleet_settings.renamed', { name }),
    onSuccess: onClose,
    // A clash is shown under the input (spec 2 §5); any other refusal too, in the server's words.
    onError: (err) => {
      form.setError('name', { type: 'server', message: errorStatus(err) === 409 ? t('fleet_settings.name_taken') : errorMessage(err, t) });
      return true;
    },
  });
  const error = form.formState.errors.name;
  return (
    <FormDialog
      form={dialog}
      title={t('fleet_settings.rename_title')}
      submitLabel={t('common.rename')}
      submitDisabled={!!error && error.type !== 'server'}
      onClose={onClose}
    >
      <Alert severity="warning">{t('fleet_settings.rename_warning')}</Alert>
      <TextInput {...form.register('name')} id="rename-fleet-name" label={t('fleet_settings.new_name')} autoComplete="off" autoFocus error={dialog.fieldError('name')} />
    </FormDialog>
  );
}
