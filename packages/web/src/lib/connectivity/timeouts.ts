import { CHUNK_LOAD_TIMEOUT_MS } from './constants';

/** A promise that has not settled in time. */
export class TimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`No answer within ${Math.round(ms / 1000)} s`);
    this.name = 'TimeoutError';
  }
}

/** `promise`, or a TimeoutError once `ms` have passed without it settling. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new TimeoutError(ms)), ms);
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

/** A page or dialog module that could not be loaded (a new build replaced it, the server is away …). */
export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super(`Loading chunk failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'ChunkLoadError';
  }
}

/**
 * Loads a lazy chunk (`() => import('./x')`): a failure, or no answer within 120 s (spec 3 §9
 * "Script chunk load timeout"), rejects with a ChunkLoadError, which the route error boundary
 * answers with an offer to reload instead of the generic error page.
 */
export async function loadChunk<T>(load: () => Promise<T>, timeoutMs = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  try {
    return await withTimeout(load(), timeoutMs);
  } catch (err) {
    throw new ChunkLoadError(err);
  }
}

/** Browsers' texts for a module script that failed to load (Chromium, Firefox, Safari; webpack's too). */
const CHUNK_FAILURE_TEXTS = [
  /failed to fetch dynamically imported module/i,
  /error loading dynamically imported module/i,
  /importing a module script failed/i,
  /loading (css )?chunk .*failed/i,
  /unable to preload css/i,
];

/** Whether `err` is a chunk that failed to load: ours, or a browser's own import failure (React.lazy users). */
export function isChunkLoadError(err: unknown): boolean {
  if (err instanceof ChunkLoadError) return true;
  const message = err instanceof Error ? err.message : typeof err === 'string' ? err : '';
  return CHUNK_FAILURE_TEXTS.some((re) => re.test(message));
}
