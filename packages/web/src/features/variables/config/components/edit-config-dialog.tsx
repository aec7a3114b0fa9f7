import Typography from '@mui/material/Typography';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../../components/form-dialog';
import { SelectInput, TextInput } from '../../../../components/form-fields';
import { configValueProblem, humanValue, type SchemaProperty } from '../config-rules';
import '../i18n';

interface Props {
  name: string;
  /** The schema's property (a custom variable has none: a text value). */
  property?: SchemaProperty;
  /** The value the dialog opens with (the staged or saved one, else the default). */
  initial: string;
  onSubmit: (value: string) => void;
  onClose: () => void;
}

/**
 * Spec 2 §4: the edit dialog of a configuration variable that is not a two-value toggle — a
 * select for an `enum`, a number input for an integer, text otherwise — checked with the
 * model's value rules (the server checks the same). Submitting stages the change.
 */
export function EditConfigDialog({ name, property, initial, onSubmit, onClose }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const [value, setValue] = useState(initial);
  const [touched, setTouched] = useState(false);
  const problem = configValueProblem(name, value, property);
  const human = property ? humanValue(property, value) : undefined;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (problem) return;
    onSubmit(value);
  };
  const help = touched && problem ? problem : undefined;
  return (
    <FormDialog title={t('variablesConfig.edit_title', { name })} submitLabel={t('variablesConfig.stage_change')} onSubmit={submit} onClose={onClose}>
      {property?.description ? <Typography variant="body2">{property.description}</Typography> : null}
      {property?.enum ? (
        <SelectInput id={`${id}-value`} label={t('variablesConfig.value')} value={value} onChange={(e) => setValue(e.target.value)} error={help}>
          {property.enum.includes(value) ? null : <option value={value}>{value}</option>}
          {property.enum.map((choice) => (
            <option key={choice} value={choice}>
              {choice}
            </option>
          ))}
        </SelectInput>
      ) : (
        <TextInput
          id={`${id}-value`}
          label={t('variablesConfig.value')}
          value={value}
          autoFocus
          type={property?.type === 'integer' ? 'number' : 'text'}
          inputProps={property?.type === 'integer' ? { step: 1, min: 0 } : undefined}
          onChange={(e) => {
            setValue(e.target.value);
            setTouched(true);
          }}
          error={help}
          helperText={human ? t('variablesConfig.reads_as', { human }) : property?.default !== undefined ? t('variablesConfig.default_is', { value: property.default }) : undefined}
        />
      )}
    </FormDialog>
  );
}
