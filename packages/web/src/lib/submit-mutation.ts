/** How a form or an action reports its result: the toast helper's two calls (`useNotify`). */
export interface Notifier {
  success: (message: string) => unknown;
  error: (err: unknown) => unknown;
}

/** What happens after a mutation: the success toast, the close, and errors a form shows itself. */
export interface MutationOutcome<TResult> {
  /** The success toast; none when absent or when it answers undefined. */
  success?: string | ((result: TResult) => string | undefined) | undefined;
  /** After the success toast (typically: close the dialog, navigate). */
  onSuccess?: ((result: TResult) => void) | undefined;
  /**
   * An error the caller shows itself (e.g. a 409 under the field): return true and no error
   * toast is shown. Otherwise the error is toasted.
   */
  onError?: ((err: unknown) => boolean | void) | undefined;
  /** After either outcome (e.g. close a confirmation whatever happened). */
  onSettled?: (() => void) | undefined;
}

export type MutationResult<TResult> = { ok: true; result: TResult } | { ok: false; error: unknown };

/**
 * The one `mutateAsync → toast → close` sequence of the dashboard (spec 1 §8: failures are
 * danger toasts, successes are success toasts). It never throws: the outcome is returned.
 */
export async function submitMutation<TResult>(
  run: () => Promise<TResult>,
  notify: Notifier,
  outcome: MutationOutcome<TResult> = {},
): Promise<MutationResult<TResult>> {
  let result: TResult;
  try {
    result = await run();
  } catch (error) {
    if (outcome.onError?.(error) !== true) notify.error(error);
    outcome.onSettled?.();
    return { ok: false, error };
  }
  const message = typeof outcome.success === 'function' ? outcome.success(result) : outcome.success;
  if (message !== undefined) notify.success(message);
  outcome.onSuccess?.(result);
  outcome.onSettled?.();
  return { ok: true, result };
}

/** How a batch went that runs one request per item (spec 1 §8: a partial failure says how many failed). */
export interface BatchOutcome {
  total: number;
  failed: number;
  firstError: unknown;
}

/**
 * Turns a batch's partial failure into the error `submitMutation` toasts: a batch of one
 * fails with its own error, a larger one with the count text. All succeeded: nothing thrown.
 */
export function throwIfBatchFailed({ total, failed, firstError }: BatchOutcome, failedText: (count: number) => string): void {
  if (failed === 0) return;
  throw total === 1 ? firstError : failedText(failed);
}
