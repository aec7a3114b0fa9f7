import { useCallback } from 'react';
import { useNotify } from './notify';
import { submitMutation, type MutationOutcome } from './submit-mutation';

/**
 * `submitMutation` for buttons and confirmations (no fields): `run(() => x.mutateAsync(…),
 * { success, onSuccess })`. Apart from `useMutationForm` so a confirmation does not load the
 * form library.
 */
export function useRunMutation() {
  const notify = useNotify();
  return useCallback(<TResult>(run: () => Promise<TResult>, outcome?: MutationOutcome<TResult>) => submitMutation(run, notify, outcome), [notify]);
}
