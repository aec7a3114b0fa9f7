import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import { useEffect, useRef, useState } from 'react';
import { useNotify } from '../lib/notify';

/** Spec 2 §4, §9: notes and known issues (release and device) save 500 ms after the last keystroke. */
export const AUTOSAVE_DEBOUNCE_MS = 500;

interface Props {
  id: string;
  label: string;
  /** The saved value; read once, so a refetch does not overwrite what the user is typing. */
  initialValue: string;
  disabled: boolean;
  onSave: (value: string) => Promise<unknown>;
  /** Status texts (the feature's strings): while waiting or saving, and once saved. */
  savingLabel: string;
  savedLabel: string;
}

type SaveState = 'idle' | 'pending' | 'saving' | 'saved';

/** A multi-line text field that saves itself after a pause in typing, and on leaving the page. */
export function AutosaveTextField({ id, label, initialValue, disabled, onSave, savingLabel, savedLabel }: Props) {
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

  const status = state === 'pending' || state === 'saving' ? savingLabel : state === 'saved' ? savedLabel : undefined;
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
