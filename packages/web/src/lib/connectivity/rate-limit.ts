import { RATE_LIMIT_BANNER_MIN_MS, RATE_LIMIT_MAX_RETRIES, RATE_LIMIT_RETRY_MAX_WAIT_MS } from './constants';

/**
 * The throttling banner of spec 3 §8 ("HTTP 429: info message about throttling. The banner
 * stays for the larger of Retry-After seconds or 5 s"). Each 429 keeps it up until
 * max(Retry-After, 5 s) from now, or longer when an earlier 429 asked for longer.
 */
export class RateLimitNotice {
  #until: number | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #listeners = new Set<() => void>();

  /** The time the banner goes away (epoch ms), or null while it is not shown. */
  getUntil = (): number | null => this.#until;

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** A 429 arrived; `retryAfterSeconds` from its Retry-After header (undefined when absent or unreadable). */
  report(retryAfterSeconds: number | undefined, now = Date.now()): void {
    const wait = Math.max(retryAfterSeconds !== undefined && retryAfterSeconds > 0 ? retryAfterSeconds * 1000 : 0, RATE_LIMIT_BANNER_MIN_MS);
    const until = now + wait;
    if (this.#until !== null && this.#until >= until) return;
    this.#until = until;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#until = null;
      this.#emit();
    }, wait);
    this.#emit();
  }

  dispose(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#listeners.clear();
  }

  #emit(): void {
    for (const listener of this.#listeners) listener();
  }
}

/** Retry-After in whole seconds (the server sends seconds); undefined when absent or not a number. */
export function retryAfterSeconds(headers: { get?: (name: string) => string | null } | undefined): number | undefined {
  const raw = headers?.get?.('Retry-After');
  if (raw === null || raw === undefined) return undefined;
  const seconds = Number.parseInt(raw, 10);
  return Number.isInteger(seconds) && seconds >= 0 ? seconds : undefined;
}

/**
 * Whether a rate-limited request is sent again by the SDK (spec 3 §9 "retry on rate
 * limiting"), bounded: reads only (a refused write is reported, never repeated behind the
 * user's back), when the server asks to wait at most a minute, and at most 3 times per request.
 * A login locked for hours is therefore answered at once.
 */
export function shouldRetryRateLimited(method: string | undefined, retryAfterMs: number | undefined, retriesSoFar: number): boolean {
  if ((method ?? 'GET').toUpperCase() !== 'GET') return false;
  if (retryAfterMs === undefined || retryAfterMs > RATE_LIMIT_RETRY_MAX_WAIT_MS) return false;
  return retriesSoFar < RATE_LIMIT_MAX_RETRIES;
}
