import { fleetNameProblem } from '@flotilla/model';
import { Alert } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog';
import { TextInput } from '../../../components/form-fields';
import { errorMessage, errorStatus } from '../../../lib/errors';

interface Props {
  currentName: string;
  onRename: (name: string) => Promise<void>;
  onClose: () => void;
}

/** Spec 2 §5: the rename dialog defaults to the current name and warns that containers restart. */
export function RenameFleetDialog({ currentName, onRename, onClose }: Props) {
  const { t } = useTranslation();
  const [name, setName] = useState(currentName);
  const [serverError, setServerError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const problem = name === currentName ? undefined : fleetNameProblem(name);
  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (problem) return;
    if (name === currentName) return onClose();
    setBusy(true);
    try {
      await onRename(name);
    } catch (err) {
      // A clash is shown under the input (spec 2 §5); the server's text as given.
      setServerError(errorStatus(err) === 409 ? t('fleet_settings.name_taken') : errorMessage(err, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <FormDialog
      open
      title={t('fleet_settings.rename_title')}
      submitLabel={t('fleet_settings.rename_submit')}
      cancelLabel={t('fleet_settings.cancel')}
      submitting={busy}
      submitDisabled={!!problem}
      onSubmit={(e) => void onSubmit(e)}
      onClose={onClose}
    >
      <Alert severity="warning">{t('fleet_settings.rename_warning')}</Alert>
      <TextInput
        id="rename-fleet-name"
        label={t('fleet_settings.new_name')}
        value={name}
        onChange={(e) => {
          setName(e.target.value);
          setServerError(undefined);
        }}
        autoComplete="off"
        autoFocus
        error={problem ?? serverError}
      />
    </FormDialog>
  );
}
