import { Alert } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { toDateTimeLocal } from '../lib/datetime-local';
import { KEY_EXPIRY_PRESET_DAYS, keyExpiry, type KeyExpiryChoice, type KeyExpiryValue } from '../lib/key-expiry';
import { SelectInput, TextInput } from './form-fields';

interface Props {
  /** The select's id; the custom date's is `${id}-date`. */
  id: string;
  /** The texts that differ between key kinds; `keep` offers "keep the current expiry" (editing a key). */
  labels: { expiry: string; days: (count: number) => string; custom: string; keep?: string | undefined; neverWarning: string };
  value: KeyExpiryValue;
  onChange: (value: KeyExpiryValue) => void;
  helperText?: string;
  disabled?: boolean;
  /** The form's error for the field (after a submit). */
  error?: string | undefined;
}

/**
 * A key's expiry (user API keys, spec 1 §5; provisioning keys, spec 2 §9): a preset number
 * of days, a custom date (not in the past: checked as soon as one is typed), or never, which
 * warns.
 */
export function ExpiryField({ id, labels, value, onChange, helperText, disabled, error }: Props) {
  const { t } = useTranslation();
  const live = value.custom !== '' ? keyExpiry(value.choice, value.custom, new Date()) : undefined;
  const shown = error ?? (live && 'error' in live ? t(`key_expiry.${live.error}`) : undefined);
  return (
    <>
      <SelectInput
        id={id}
        label={labels.expiry}
        value={value.choice}
        onChange={(e) => onChange({ ...value, choice: e.target.value as KeyExpiryChoice })}
        disabled={disabled}
        helperText={helperText}
      >
        {labels.keep !== undefined && <option value="keep">{labels.keep}</option>}
        {KEY_EXPIRY_PRESET_DAYS.map((d) => (
          <option key={d} value={String(d)}>
            {labels.days(d)}
          </option>
        ))}
        <option value="custom">{labels.custom}</option>
        <option value="never">{t('key_expiry.never')}</option>
      </SelectInput>
      {value.choice === 'custom' && (
        <TextInput
          id={`${id}-date`}
          type="datetime-local"
          label={t('key_expiry.date')}
          value={value.custom}
          onChange={(e) => onChange({ ...value, custom: e.target.value })}
          inputProps={{ min: toDateTimeLocal(new Date()) }}
          disabled={disabled}
          error={shown}
        />
      )}
      {value.choice === 'never' && <Alert severity="warning">{labels.neverWarning}</Alert>}
    </>
  );
}
