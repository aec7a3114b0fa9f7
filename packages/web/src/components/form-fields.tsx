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
  helperText?: ReactNode;
}

type TextInputProps = FieldProps & Omit<OutlinedInputProps, 'id' | 'label' | 'error'>;

export const TextInput = forwardRef<HTMLInputElement, TextInputProps>(function TextInput(
  { id, label, error, helperText, ...inputProps },
  ref,
) {
  const help = error ?? helperText;
  return (
    <FormControl fullWidth error={!!error}>
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput
        {...inputProps}
        id={id}
        label={label}
        inputRef={ref}
        aria-describedby={help ? `${id}-help` : undefined}
        aria-invalid={!!error || undefined}
      />
      {help && <FormHelperText id={`${id}-help`}>{help}</FormHelperText>}
    </FormControl>
  );
});

type SelectInputProps = FieldProps & Omit<NativeSelectProps, 'id' | 'error' | 'input' | 'inputRef'>;

/** A native <select> (keyboard- and screen-reader-friendly, and light). */
export const SelectInput = forwardRef<HTMLSelectElement, SelectInputProps>(function SelectInput(
  { id, label, error, helperText, children, ...selectProps },
  ref,
) {
  const help = error ?? helperText;
  return (
    <FormControl fullWidth error={!!error}>
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
