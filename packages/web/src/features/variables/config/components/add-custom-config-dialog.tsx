import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../../components/form-dialog';
import { TextInput } from '../../../../components/form-fields';
import { configValueProblem, customNameProblem, type SchemaProperty } from '../config-rules';
import '../i18n';

interface Props {
  /** Names of the custom variables already there (saved or staged). */
  existing: readonly string[];
  schema: Record<string, SchemaProperty>;
  onSubmit: (variable: { name: string; value: string }) => void;
  onClose: () => void;
}

/**
 * Spec 2 §2 "add custom configuration": a name checked with the model's configuration name
 * rules (`variableNameProblem('config', …)`) and against the custom variables already there,
 * and a value. Submitting stages the new row.
 */
export function AddCustomConfigDialog({ existing, schema, onSubmit, onClose }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [touched, setTouched] = useState({ name: false, value: false });
  const nameProblem = customNameProblem(name, existing, schema);
  const valueProblem = configValueProblem(name.trim(), value);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched({ name: true, value: true });
    if (nameProblem || valueProblem) return;
    onSubmit({ name: name.trim(), value });
  };
  return (
    <FormDialog title={t('variablesConfig.add_custom_title')} submitLabel={t('variablesConfig.stage_add')} onSubmit={submit} onClose={onClose}>
      <TextInput
        id={`${id}-name`}
        label={t('variablesConfig.name')}
        value={name}
        autoFocus
        onChange={(e) => setName(e.target.value)}
        onBlur={() => setTouched((x) => ({ ...x, name: true }))}
        error={touched.name ? nameProblem : undefined}
        helperText={t('variablesConfig.custom_name_help')}
      />
      <TextInput
        id={`${id}-value`}
        label={t('variablesConfig.value')}
        value={value}
        onChange={(e) => {
          setValue(e.target.value);
          setTouched((x) => ({ ...x, value: true }));
        }}
        error={touched.value ? valueProblem : undefined}
      />
    </FormDialog>
  );
}
