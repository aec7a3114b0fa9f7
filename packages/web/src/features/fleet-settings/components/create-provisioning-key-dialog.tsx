import { Alert } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog';
import { SelectInput, TextInput } from '../../../components/form-fields';
import { useNotify } from '../../../lib/notify';
import type { NewProvisioningKey } from '../api/provisioning-keys';
import { toDateTimeLocal } from '../../../lib/datetime-local';
import { KEY_EXPIRY_PRESET_DAYS, keyExpiryDate, type KeyExpiryChoice } from '../fleet-settings-rules';

interface Props {
  onCreate: (key: NewProvisioningKey) => Promise<void>;
  onClose: () => void;
}

/** A provisioning key: name, optional description, expiry preset, custom date or never. */
export function CreateProvisioningKeyDialog({ onCreate, onClose }: Props) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [choice, setChoice] = useState<KeyExpiryChoice>('30');
  const [custom, setCustom] = useState('');
  const [busy, setBusy] = useState(false);
  const [touched, setTouched] = useState(false);
  const expiry = keyExpiryDate(choice, custom, new Date());
  const nameError = touched && name.trim() === '' ? t('api_keys.name_required') : undefined;
  const expiryError = 'error' in expiry && (touched || custom !== '') ? t(`api_keys.${expiry.error}`) : undefined;

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setTouched(true);
    if (name.trim() === '' || 'error' in expiry) return;
    setBusy(true);
    try {
      await onCreate({ name: name.trim(), description: description.trim() || undefined, expiryDate: expiry.expiryDate });
    } catch (err) {
      notify.error(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormDialog
      open
      title={t('api_keys.create_title')}
      submitLabel={t('api_keys.create_submit')}
      cancelLabel={t('api_keys.cancel')}
      submitting={busy}
      onSubmit={(e) => void onSubmit(e)}
      onClose={onClose}
    >
      <TextInput id="provisioning-key-name" label={t('api_keys.name')} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" autoFocus error={nameError} />
      <TextInput
        id="provisioning-key-description"
        label={t('api_keys.description_optional')}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        autoComplete="off"
        multiline
        minRows={2}
      />
      <SelectInput id="provisioning-key-expiry" label={t('api_keys.expiry')} value={choice} onChange={(e) => setChoice(e.target.value as KeyExpiryChoice)}>
        {KEY_EXPIRY_PRESET_DAYS.map((d) => (
          <option key={d} value={String(d)}>
            {t('api_keys.expiry_days', { count: d })}
          </option>
        ))}
        <option value="custom">{t('api_keys.expiry_custom')}</option>
        <option value="never">{t('api_keys.expiry_never')}</option>
      </SelectInput>
      {choice === 'custom' && (
        <TextInput
          id="provisioning-key-expiry-date"
          type="datetime-local"
          label={t('api_keys.expiry_date')}
          value={custom}
          onChange={(e) => setCustom(e.target.value)}
          inputProps={{ min: toDateTimeLocal(new Date()) }}
          error={expiryError}
        />
      )}
      {choice === 'never' && <Alert severity="warning">{t('api_keys.never_warning')}</Alert>}
    </FormDialog>
  );
}
