import { LOG_PANEL } from '@flotilla/model';

/** Where a subscription stands, for the next attempt. */
export interface AttemptFacts {
  /** The attempt was the panel's first since it opened for this device. */
  first: boolean;
  /** The server had answered the attempt (the stream opened) before it failed or ended. */
  opened: boolean;
}

/** The HTTP status an SDK error carries (BalenaRequestError's statusCode), if any. */
export function errorStatusOf(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const status = (err as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' ? status : undefined;
}

/**
 * Spec 2 §4 "Log stream": after an error the stream reconnects in 1 s, or in 10 s after a
 * rate limit (429) or a 503, and 10 s after an initial failure (the panel's first attempt
 * failing before the stream opened).
 */
export function reconnectDelayMs(err: unknown, attempt: AttemptFacts): number {
  const status = errorStatusOf(err);
  if (status === 429 || status === 503) return LOG_PANEL.reconnectSlowMs;
  if (attempt.first && !attempt.opened) return LOG_PANEL.reconnectSlowMs;
  return LOG_PANEL.reconnectMs;
}

/** Spec 2 §7: the first subscription asks for 100 lines of history, a reconnection for none. */
export function historyCount(reconnecting: boolean): number {
  return reconnecting ? 0 : LOG_PANEL.initialHistory;
}
