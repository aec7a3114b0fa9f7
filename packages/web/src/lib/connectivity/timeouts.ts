import { CHUNK_LOAD_TIMEOUT_MS } from './constants';

/** `promise`, or an error named TimeoutError once `ms` have passed without it settling. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(Object.assign(new Error(`No answer within ${ms / 1000} s`), { name: 'TimeoutError' })), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

/**
 * Browsers' texts for a module script that failed to load (Chromium, Firefox, Safari), Vite's
 * preload failure, and ours below ('Loading chunk failed').
 */
const CHUNK_FAILURE = /dynamically imported module|importing a module script failed|loading (css )?chunk .*failed|unable to preload css/i;

/**
 * Loads a lazy chunk (`() => import('./x')`): a failure, or no answer within 120 s (spec 3 §9
 * "Script chunk load timeout"), rejects with a 'Loading chunk failed' error, which the route
 * error boundary answers with an offer to reload instead of the generic error page.
 */
export async function loadChunk<T>(load: () => Promise<T>, timeoutMs = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  try {
    return await withTimeout(load(), timeoutMs);
  } catch (cause) {
    throw new Error(`Loading chunk failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** Whether `err` is a chunk that failed to load: through loadChunk, or a browser's own import failure (React.lazy users). */
export function isChunkLoadError(err: unknown): boolean {
  return CHUNK_FAILURE.test(err instanceof Error ? err.message : typeof err === 'string' ? err : '');
}
