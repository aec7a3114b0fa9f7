import type { UseFormRegisterReturn } from 'react-hook-form';
import { TextInput } from './form-fields';

interface Props {
  ids: { password: string; confirmation: string };
  labels: { password: string; confirmation: string };
  /** `form.register('password')` and `form.register('confirmPassword')`. */
  password: UseFormRegisterReturn;
  confirmation: UseFormRegisterReturn;
  errors: { password?: string | undefined; confirmation?: string | undefined };
  autoFocus?: boolean;
}

/** A new password and its confirmation (sign-up, password reset, account security; spec 1 §5). */
export function NewPasswordFields({ ids, labels, password, confirmation, errors, autoFocus }: Props) {
  return (
    <>
      <TextInput {...password} id={ids.password} type="password" label={labels.password} autoComplete="new-password" autoFocus={autoFocus} error={errors.password} />
      <TextInput {...confirmation} id={ids.confirmation} type="password" label={labels.confirmation} autoComplete="new-password" error={errors.confirmation} />
    </>
  );
}
