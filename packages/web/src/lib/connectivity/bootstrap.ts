import { BOOTSTRAP_RETRY_MS, BOOTSTRAP_TIMEOUT_MS } from './constants';
import { withTimeout } from './timeouts';

/** The start-up bootstrap (the session), failing after 59 s without an answer (spec 3 §9). */
export function bootstrapWithTimeout<T>(load: () => Promise<T>, timeoutMs = BOOTSTRAP_TIMEOUT_MS): Promise<T> {
  return withTimeout(load(), timeoutMs);
}

/** After a failed start-up the bootstrap is tried again in 10 s (spec 3 §4); returns the cancel. */
export function scheduleBootstrapRetry(retry: () => void, delayMs = BOOTSTRAP_RETRY_MS): () => void {
  const timer = setTimeout(retry, delayMs);
  return () => clearTimeout(timer);
}
