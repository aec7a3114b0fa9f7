import {
  FormControl,
  FormHelperText,
  InputLabel,
  NativeSelect,
  OutlinedInput,
  type NativeSelectProps,
  type OutlinedInputProps,
} from '@mui/material';
import { forwardRef, type ReactNode } from 'react';

/*
 * Labelled form inputs for react-hook-form's `register`. They are what MUI's TextField
 * renders (outlined), minus the Select/Filled/Standard variants TextField always bundles.
 * Every input has a <label for>, so it can be found by its label.
 */

interface FieldProps {
  id: string;
  label: string;
  error?: string | undefined;
  /** Marks the field invalid without a message of its own (a form-level error names it). */
  invalid?: boolean | undefined;
  helperText?: ReactNode;
}

type TextInputProps = FieldProps & Omit<OutlinedInputProps, 'id' | 'label' | 'error'>;

/*
 * The label always sits on the outline (shrunk), like the selects': a value set by a form
 * library after mount (react-hook-form's `values`) never tells MUI the field is filled, and
 * the floating label was drawn over it (issue 11). `size` reaches the label through the
 * FormControl, so a small field's label is placed for a small field.
 */
export const TextInput = forwardRef<HTMLInputElement, TextInputProps>(function TextInput(
  { id, label, error, invalid, helperText, size, ...inputProps },
  ref,
) {
  const help = error ?? helperText;
  const isInvalid = !!error || !!invalid;
  return (
    <FormControl fullWidth error={isInvalid} size={size}>
      <InputLabel htmlFor={id} shrink>
        {label}
      </InputLabel>
      <OutlinedInput
        {...inputProps}
        id={id}
        label={label}
        notched
        inputRef={ref}
        aria-describedby={help ? `${id}-help` : undefined}
        aria-invalid={isInvalid || undefined}
      />
      {help && <FormHelperText id={`${id}-help`}>{help}</FormHelperText>}
    </FormControl>
  );
});

type SelectInputProps = FieldProps & Omit<NativeSelectProps, 'id' | 'error' | 'input' | 'inputRef'>;

/** A native <select> (keyboard- and screen-reader-friendly, and light). */
export const SelectInput = forwardRef<HTMLSelectElement, SelectInputProps>(function SelectInput(
  { id, label, error, invalid, helperText, children, size, ...selectProps },
  ref,
) {
  const help = error ?? helperText;
  return (
    <FormControl fullWidth error={!!error || !!invalid} size={size}>
      <InputLabel htmlFor={id} shrink>
        {label}
      </InputLabel>
      <NativeSelect
        {...selectProps}
        id={id}
        inputRef={ref}
        input={<OutlinedInput label={label} notched />}
        inputProps={{ 'aria-describedby': help ? `${id}-help` : undefined }}
      >
        {children}
      </NativeSelect>
      {help && <FormHelperText id={`${id}-help`}>{help}</FormHelperText>}
    </FormControl>
  );
});
