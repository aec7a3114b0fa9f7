import { Typography } from '@mui/material';
import { variableNameProblem, variableValueProblem } from '@flotilla/model';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog';
import { SelectInput, TextInput } from '../../../components/form-fields';
import { ALL_SERVICES, slotOf, type ServiceOption, type VariableRow } from '../variable-row';
import '../i18n';

export type VariableDialogMode =
  /** A new variable: name, value and service. */
  | { kind: 'add' }
  /** A new value of a row: name and service fixed. */
  | { kind: 'edit'; row: VariableRow }
  /** Device page: a device override of a fleet variable, prefilled with the fleet's value. */
  | { kind: 'overwrite'; row: VariableRow };

interface VariableDialogProps {
  mode: VariableDialogMode;
  services: readonly ServiceOption[];
  /** The slots (name per service) taken by the table's other rows: a new name there is a duplicate. */
  taken: ReadonlySet<string>;
  /** Stages the row (nothing is written until 'apply all'). */
  onSubmit: (value: { name: string; value: string; service: ServiceOption | undefined }) => void;
  onClose: () => void;
}

/**
 * The add, edit and overwrite dialogs of the variables pages (spec 2 §2). The name and value are
 * checked with the model's rules (`variableNameProblem`, `variableValueProblem`: the server's
 * own) and the name against the table's other rows; the server checks again on apply.
 */
export function VariableDialog({ mode, services, taken, onSubmit, onClose }: VariableDialogProps) {
  const { t } = useTranslation();
  const fixed = mode.kind === 'add' ? undefined : mode.row;
  const [name, setName] = useState(fixed?.name ?? '');
  const [value, setValue] = useState(fixed?.value ?? '');
  const [serviceId, setServiceId] = useState(fixed?.serviceId ?? ALL_SERVICES);
  const [nameError, setNameError] = useState<string | undefined>();
  const [valueError, setValueError] = useState<string | undefined>();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const service = serviceId === ALL_SERVICES ? undefined : (services.find((s) => s.id === serviceId) ?? (fixed && { id: fixed.serviceId, name: fixed.serviceName, ...(fixed.serviceInstallId !== undefined ? { serviceInstallId: fixed.serviceInstallId } : {}) }));
    let nameProblem: string | undefined;
    if (mode.kind === 'add') {
      nameProblem = variableNameProblem('environment', name);
      if (nameProblem === undefined && taken.has(slotOf({ name, serviceId }))) nameProblem = t('variables.already_exists');
      if (nameProblem === undefined && serviceId !== ALL_SERVICES && service === undefined) nameProblem = t('variables.service_not_found');
    }
    const valueProblem = variableValueProblem(name, value);
    setNameError(nameProblem);
    setValueError(valueProblem);
    if (nameProblem !== undefined || valueProblem !== undefined) return;
    onSubmit({ name, value, service });
    onClose();
  };

  const title =
    mode.kind === 'add'
      ? t('variables.add_title')
      : mode.kind === 'edit'
        ? t('variables.edit_title', { name: mode.row.name })
        : t('variables.overwrite_title', { name: mode.row.name });
  const submitLabel = mode.kind === 'add' ? t('variables.add_submit') : mode.kind === 'edit' ? t('common.save') : t('variables.overwrite_submit');
  return (
    <FormDialog title={title} submitLabel={submitLabel} onSubmit={submit} onClose={onClose}>
      {mode.kind === 'add' ? (
        <TextInput
          id="variable-name"
          label={t('variables.name')}
          value={name}
          onChange={(e) => setName(e.target.value)}
          autoComplete="off"
          autoFocus
          error={nameError}
          inputProps={{ spellCheck: false }}
        />
      ) : (
        <Typography>
          <strong>{t('variables.name')}:</strong> {name}
        </Typography>
      )}
      <TextInput
        id="variable-value"
        label={t('variables.value')}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        multiline
        minRows={1}
        maxRows={8}
        autoFocus={mode.kind !== 'add'}
        error={valueError}
        inputProps={{ spellCheck: false }}
      />
      {mode.kind === 'add' ? (
        <SelectInput id="variable-service" label={t('variables.service')} value={serviceId} onChange={(e) => setServiceId(Number(e.target.value))}>
          <option value={ALL_SERVICES}>{t('variables.all_services')}</option>
          {services.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </SelectInput>
      ) : (
        <Typography>
          <strong>{t('variables.service')}:</strong> {fixed?.serviceId === ALL_SERVICES ? t('variables.all_services') : fixed?.serviceName}
        </Typography>
      )}
    </FormDialog>
  );
}
