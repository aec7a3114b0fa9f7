import { useTranslation } from 'react-i18next';
import { AutosaveTextField } from '../../../components/autosave-text-field';

interface Props {
  initialValue: string;
  disabled: boolean;
  onSave: (value: string) => Promise<unknown>;
}

/** The device note: saved 500 ms after a pause in typing, and at once when the page is left. */
export function DeviceNoteField({ initialValue, disabled, onSave }: Props) {
  const { t } = useTranslation();
  return (
    <AutosaveTextField
      id="device-note"
      label={t('devices.note')}
      initialValue={initialValue}
      disabled={disabled}
      onSave={onSave}
      savingLabel={t('devices.saving')}
      savedLabel={t('devices.saved')}
    />
  );
}
