import { Checkbox, FormControlLabel, FormGroup } from '@mui/material';

interface Props<T extends string | number> {
  /** The group's accessible name (e.g. "Fleets", "Organization members"). */
  label: string;
  options: readonly { value: T; label: string }[];
  /** The picked values, in the order they were picked. */
  value: readonly T[];
  onChange: (value: T[]) => void;
}

/** Pick several of a list (grant access, add team members), as one form field. */
export function CheckboxGroup<T extends string | number>({ label, options, value, onChange }: Props<T>) {
  return (
    <FormGroup aria-label={label}>
      {options.map((o) => (
        <FormControlLabel
          key={o.value}
          label={o.label}
          control={
            <Checkbox checked={value.includes(o.value)} onChange={(e) => onChange(e.target.checked ? [...value, o.value] : value.filter((v) => v !== o.value))} />
          }
        />
      ))}
    </FormGroup>
  );
}
