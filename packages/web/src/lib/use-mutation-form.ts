import { zodResolver } from '@hookform/resolvers/zod';
import { useCallback, type FormEventHandler } from 'react';
import { useForm, type DefaultValues, type FieldValues, type KeepStateOptions, type Mode, type Path, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod/mini';
import { useNotify } from './notify';
import { submitMutation, type MutationOutcome } from './submit-mutation';

export interface MutationFormOptions<TIn extends FieldValues, TOut extends FieldValues, TResult> extends MutationOutcome<TResult> {
  /** The form's rules: zod over the fields, checks from the model's rules (`lib/form-rules`). */
  schema: z.ZodMiniType<TOut, TIn>;
  defaultValues: DefaultValues<NoInfer<TIn>>;
  /** Values that arrive after the form opened (react-hook-form `values`). */
  values?: NoInfer<TIn> | undefined;
  /** What `values` arriving keeps (e.g. `keepDirtyValues`: what the user typed). */
  resetOptions?: KeepStateOptions;
  /** When fields are checked; react-hook-form's default is on submit, then on change. */
  mode?: Mode;
  /** The mutation, with the checked values (`mutateAsync` or an `onSave` the caller gave). */
  submit: (values: TOut) => Promise<TResult>;
}

export interface MutationForm<TIn extends FieldValues, TOut extends FieldValues> {
  form: UseFormReturn<TIn, unknown, TOut>;
  /** The form element's submit handler: validate, run, toast, close. */
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** The same, without an event: for a form that submits itself (a code complete at six digits). */
  submitNow: () => Promise<void>;
  /** True from submit until the mutation settles (buttons show progress, the dialog stays). */
  submitting: boolean;
  /** The error text of a field, for `error={…}` on an input. */
  fieldError: (name: Path<TIn>) => string | undefined;
}

/**
 * The one way to write a form (react-hook-form + zod): it owns validation, pending state,
 * the success and error toasts (`submitMutation`) and what follows a success (close).
 */
export function useMutationForm<TIn extends FieldValues, TOut extends FieldValues, TResult>(
  options: MutationFormOptions<TIn, TOut, TResult>,
): MutationForm<TIn, TOut> {
  const notify = useNotify();
  const form = useForm<TIn, unknown, TOut>({
    resolver: zodResolver<TIn, unknown, TOut>(options.schema),
    defaultValues: options.defaultValues,
    values: options.values,
    resetOptions: options.resetOptions,
    mode: options.mode ?? 'onSubmit',
  });
  const { submit, success, onSuccess, onError, onSettled } = options;
  const handle = useCallback(
    (values: TOut) => submitMutation(() => submit(values), notify, { success, onSuccess, onError, onSettled }).then(() => undefined),
    [submit, notify, success, onSuccess, onError, onSettled],
  );
  const onSubmit: FormEventHandler<HTMLFormElement> = (e) => void form.handleSubmit(handle)(e);
  const submitNow = () => form.handleSubmit(handle)();
  const fieldError = (name: Path<TIn>) => {
    const message = form.getFieldState(name, form.formState).error?.message;
    return typeof message === 'string' ? message : undefined;
  };
  return { form, onSubmit, submitNow, submitting: form.formState.isSubmitting, fieldError };
}
