import { onlineManager } from '@tanstack/react-query';
import { showsApiUnreachable } from '../errors';
import type { ConnectivityMonitor } from './connectivity-monitor';
import { RATE_LIMIT_RETRY_MAX_WAIT_MS } from './constants';
import { retryAfterSeconds, shouldRetryRateLimited, type RateLimitNotice } from './rate-limit';

/** The part of a balena-request interceptor used here. */
export interface ResponseInterceptor {
  response: <T>(response: T) => T;
  responseError: (err: unknown) => never;
}

/** What balena-request's errors carry: the status, the answer's headers and the options sent. */
interface RequestError {
  statusCode?: unknown;
  responseHeaders?: { get?: (name: string) => string | null };
  requestOptions?: Record<string, unknown> & { method?: string; doNotRetry?: boolean };
}

/** How often a request's options were sent again after a 429 (kept on the options object the SDK resends). */
const RATE_LIMIT_RETRIES = '__flotillaRateLimitRetries';

/**
 * The one place where the dashboard's requests meet connectivity and rate limiting: an
 * interceptor on balena-sdk's request layer (every pine query, model call and `sdk.request`).
 * - An answer of any kind (a 4xx included) shows the API reachable; no answer, or a gateway's
 *   502/503/504, counts towards the offline flag (spec 3 §4).
 * - A 429 shows the throttling banner for max(Retry-After, 5 s) (spec 3 §8) and decides whether
 *   the SDK's own rate-limit retry (`retryRateLimitedRequests`) may send it again
 *   (`shouldRetryRateLimited`): otherwise the request is marked `doNotRetry` and fails.
 * Pushed after the SDK's interceptors, it sees each answer before the SDK's retry does.
 */
export function connectivityInterceptor(monitor: ConnectivityMonitor, notice: RateLimitNotice): ResponseInterceptor {
  return {
    response(response) {
      monitor.reportSuccess();
      return response;
    },
    responseError(err: unknown): never {
      const e = (typeof err === 'object' && err !== null ? err : {}) as RequestError;
      if (showsApiUnreachable(err)) monitor.reportFailure();
      else if (typeof e.statusCode === 'number') monitor.reportSuccess();
      if (e.statusCode === 429) {
        const seconds = retryAfterSeconds(e.responseHeaders);
        notice.report(seconds);
        const options = e.requestOptions;
        if (options) {
          const retries = typeof options[RATE_LIMIT_RETRIES] === 'number' ? options[RATE_LIMIT_RETRIES] : 0;
          if (shouldRetryRateLimited(options.method, seconds === undefined ? undefined : seconds * 1000, retries)) {
            options[RATE_LIMIT_RETRIES] = retries + 1;
          } else {
            options.doNotRetry = true;
          }
        }
      }
      throw err;
    },
  };
}

/** balena-sdk's `retryRateLimitedRequests`: the wait bound (the interceptor above decides the rest). */
export const retryRateLimitedRequests = (retryAfterMs: number): boolean => retryAfterMs <= RATE_LIMIT_RETRY_MAX_WAIT_MS;

/**
 * TanStack Query's online state follows the connectivity flag: while it is raised, queries
 * wait (paused) instead of failing, and when it clears TanStack Query resumes them and
 * refetches the queries that failed meanwhile (its reconnect refetch) — the queued GET
 * requests of spec 3 §4. The browser's own `online` event probes at once.
 */
export function followConnectivity(monitor: ConnectivityMonitor, target: Pick<Window, 'addEventListener' | 'removeEventListener'> | null): void {
  onlineManager.setEventListener((setOnline) => {
    setOnline(!monitor.getState().offline);
    const unsubscribe = monitor.subscribe(() => setOnline(!monitor.getState().offline));
    const onBrowserOnline = () => void monitor.retryNow();
    target?.addEventListener('online', onBrowserOnline);
    return () => {
      unsubscribe();
      target?.removeEventListener('online', onBrowserOnline);
    };
  });
}
