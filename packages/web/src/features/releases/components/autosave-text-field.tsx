import { FormHelperText, InputLabel, FormControl, OutlinedInput } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../../lib/notify';

/** Spec 2 §9: notes and known issues are saved 500 ms after the last keystroke. */
export const AUTOSAVE_DEBOUNCE_MS = 500;

interface Props {
  id: string;
  label: string;
  /** The saved value; read once, so a refetch does not overwrite what the user is typing. */
  initialValue: string;
  disabled: boolean;
  onSave: (value: string) => Promise<unknown>;
}

type SaveState = 'idle' | 'pending' | 'saving' | 'saved';

/** A multi-line text field that saves itself after a pause in typing, and on leaving the page. */
export function AutosaveTextField({ id, label, initialValue, disabled, onSave }: Props) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [value, setValue] = useState(initialValue);
  const [state, setState] = useState<SaveState>('idle');
  const saved = useRef(initialValue);
  const pending = useRef<{ timer: ReturnType<typeof setTimeout>; value: string } | null>(null);
  const latest = useRef({ onSave, notify });
  latest.current = { onSave, notify };

  const save = async (next: string) => {
    pending.current = null;
    if (next === saved.current) {
      setState('saved');
      return;
    }
    setState('saving');
    try {
      await latest.current.onSave(next);
      saved.current = next;
      setState('saved');
    } catch (err) {
      latest.current.notify.error(err);
      setState('idle');
    }
  };

  // Leaving the page with a save still waiting sends it at once.
  useEffect(
    () => () => {
      const p = pending.current;
      if (!p) return;
      clearTimeout(p.timer);
      if (p.value !== saved.current) latest.current.onSave(p.value).catch((err: unknown) => latest.current.notify.error(err));
    },
    [],
  );

  const onChange = (next: string) => {
    setValue(next);
    setState('pending');
    if (pending.current) clearTimeout(pending.current.timer);
    pending.current = { value: next, timer: setTimeout(() => void save(next), AUTOSAVE_DEBOUNCE_MS) };
  };

  const status = state === 'pending' || state === 'saving' ? t('releases.saving') : state === 'saved' ? t('releases.saved') : undefined;
  return (
    <FormControl fullWidth>
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput
        id={id}
        label={label}
        value={value}
        multiline
        minRows={2}
        maxRows={12}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={`${id}-status`}
      />
      <FormHelperText id={`${id}-status`} aria-live="polite">
        {status ?? ' '}
      </FormHelperText>
    </FormControl>
  );
}
