import {
  OFFLINE_AFTER_FAILURES,
  PING_TIMEOUT_MS,
  PROBE_RETRY_BASE_MS,
  PROBE_RETRY_MAX_COUNTED_FAILURES,
  PROBE_RETRY_STEP_MS,
} from './constants';

/** Whether the API answers; `checking` while a probe the user asked for runs. */
export interface ConnectivityState {
  offline: boolean;
  failures: number;
  checking: boolean;
}

/** One connectivity probe: true when the API answered. */
export type Probe = () => Promise<boolean>;

/**
 * Spec 3 §9 "retry delay is 200 ms times the failure count (max 10), starting at 10 s": the
 * wait before the next probe is 10 s plus 200 ms per failure so far, at most 10 of them
 * counted (10.2 s after the first failure, 12 s from the tenth on). docs/decisions.md.
 */
export function probeRetryDelay(failures: number): number {
  const counted = Math.min(Math.max(failures, 0), PROBE_RETRY_MAX_COUNTED_FAILURES);
  return PROBE_RETRY_BASE_MS + PROBE_RETRY_STEP_MS * counted;
}

/**
 * The connectivity-lost flag of spec 3 §4. Failed pings and failed requests that show the API
 * unreachable (network errors, 502/503/504: `reportFailure`) count up; the third in a row raises
 * the flag. The first failure starts probing (`GET /ping`, at once, then after
 * `probeRetryDelay`), and probing goes on until the API answers. Any answer (a probe or any
 * request: `reportSuccess`) clears the count and the flag; listeners then retry what waited.
 */
export class ConnectivityMonitor {
  #state: ConnectivityState = { offline: false, failures: 0, checking: false };
  #timer: ReturnType<typeof setTimeout> | undefined;
  #probing = false;
  /** Bumped by every success, so a probe that started before it cannot count a failure after it. */
  #epoch = 0;
  readonly #listeners = new Set<() => void>();

  constructor(private readonly probe: Probe) {}

  getState = (): ConnectivityState => this.#state;

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** A request failed in a way that shows the API unreachable. */
  reportFailure(): void {
    this.#countFailure();
    // The first failure is checked at once; later ones wait for the scheduled probe.
    if (this.#timer === undefined && !this.#probing) void this.#runProbe();
  }

  /** Something answered: the API is reachable. */
  reportSuccess(): void {
    this.#epoch += 1;
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.#state.failures === 0 && !this.#state.offline) return;
    this.#set({ offline: false, failures: 0 });
  }

  /** The offline banner's Retry: probe now. */
  retryNow(): Promise<void> {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.#probing) return Promise.resolve();
    return this.#runProbe(true);
  }

  /** Stops the scheduled probe (tests, teardown). */
  dispose(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#listeners.clear();
  }

  #countFailure(): void {
    const failures = this.#state.failures + 1;
    this.#set({ failures, offline: this.#state.offline || failures >= OFFLINE_AFTER_FAILURES });
  }

  async #runProbe(byUser = false): Promise<void> {
    this.#probing = true;
    const epoch = this.#epoch;
    if (byUser) this.#set({ checking: true });
    let ok: boolean;
    try {
      ok = await this.probe();
    } catch {
      ok = false;
    }
    this.#probing = false;
    if (byUser) this.#set({ checking: false });
    if (ok) {
      this.reportSuccess();
      return;
    }
    // An answer arrived meanwhile: this probe's failure is out of date.
    if (epoch !== this.#epoch) return;
    this.#countFailure();
    this.#schedule();
  }

  #schedule(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#runProbe();
    }, probeRetryDelay(this.#state.failures));
  }

  #set(patch: Partial<ConnectivityState>): void {
    this.#state = { ...this.#state, ...patch };
    for (const listener of this.#listeners) listener();
  }
}

/** `GET /ping` on the dashboard's origin, without a token and without a retry (spec 3 §4). */
export function pingProbe(origin: string, timeoutMs = PING_TIMEOUT_MS): Probe {
  return async () => {
    try {
      const res = await fetch(`${origin}/ping`, { cache: 'no-store', credentials: 'omit', signal: AbortSignal.timeout(timeoutMs) });
      return res.ok;
    } catch {
      return false;
    }
  };
}
