import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useRunMutation } from '../lib/notify';
import { SelectInput } from './form-fields';
import { PermissionTooltip } from './permission-tooltip';
import { SettingRow } from './setting-row';

interface Props {
  title: string;
  description: string;
  /** The select's id; its label is the title. */
  id: string;
  /** The saved choice; Save is enabled once another is picked. */
  current: string;
  options: readonly { value: string; label: string }[];
  allowed: boolean;
  /** Disabled for a reason other than permission (loading, local mode). */
  disabled?: boolean;
  /** Saves a choice; the success toast names what happened. */
  onSave: (choice: string) => Promise<unknown>;
  success: (choice: string) => string;
  /** Above the controls (a warning). */
  intro?: ReactNode;
  /** Below the controls (a reason, a hint). */
  children?: ReactNode;
}

/**
 * One choice saved with a button (release policy of a fleet or a device, a fleet's default
 * device type; spec 2 §4, §5): a select
 * and Save, disabled without permission (with the denial tooltip) or while unchanged.
 */
export function SelectSetting({ title, description, id, current, options, allowed, disabled = false, onSave, success, intro, children }: Props) {
  const { t } = useTranslation();
  const run = useRunMutation();
  const [choice, setChoice] = useState(current);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    await run(() => onSave(choice), { success: success(choice) });
    setBusy(false);
  };
  return (
    <SettingRow title={title} description={description}>
      {intro}
      <Stack direction="row" spacing={1} sx={{ width: '100%' }}>
        <SelectInput id={id} label={title} value={choice} onChange={(e) => setChoice(e.target.value)} disabled={!allowed || disabled}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </SelectInput>
        <PermissionTooltip allowed={allowed}>
          <Button variant="outlined" disabled={!allowed || disabled || choice === current} loading={busy} onClick={() => void save()}>
            {t('common.save')}
          </Button>
        </PermissionTooltip>
      </Stack>
      {children}
    </SettingRow>
  );
}
