/** The dashboard's platform timings (spec 3 §9), in one place. */

/** Offline is flagged after this many failed pings or failed requests in a row. */
export const OFFLINE_AFTER_FAILURES = 3;
/** The next probe after a failure waits this long … */
export const PROBE_RETRY_BASE_MS = 10_000;
/** … plus this much per failure so far … */
export const PROBE_RETRY_STEP_MS = 200;
/** … counting at most this many failures (so the wait is 10.2 s to 12 s). */
export const PROBE_RETRY_MAX_COUNTED_FAILURES = 10;
/** A ping that has not answered after this long counts as failed. */
export const PING_TIMEOUT_MS = 10_000;

/** The throttling banner stays at least this long, or for Retry-After when that is longer. */
export const RATE_LIMIT_BANNER_MIN_MS = 5_000;
/** Requests per minute the SDK sends at most (spec 3 §9 "Request limit is 350"). */
export const REQUEST_LIMIT_PER_MINUTE = 350;
/** A rate-limited read is sent again only when the server asks to wait at most this long … */
export const RATE_LIMIT_RETRY_MAX_WAIT_MS = 60_000;
/** … and at most this many times. */
export const RATE_LIMIT_MAX_RETRIES = 3;

/** The start-up session bootstrap fails after this long … */
export const BOOTSTRAP_TIMEOUT_MS = 59_000;
/** … and is tried again this long after a failure. */
export const BOOTSTRAP_RETRY_MS = 10_000;

/** A page or dialog chunk that has not loaded after this long counts as failed. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** The stored session token is compared this often (spec 3 §9 "Session check interval is 1 s"). */
export const SESSION_CHECK_INTERVAL_MS = 1_000;
/**
 * A visible, signed-in tab asks the server this often whether its session still stands, so a
 * session revoked elsewhere ("log out from other sessions", a changed password) signs the tab
 * out within seconds even while the page makes no other request.
 */
export const SERVER_SESSION_CHECK_MS = 15_000;
/** After a chunk failed, the page reloads itself once after this pause (the network settles) … */
export const CHUNK_RELOAD_DELAY_MS = 1_000;
/** … unless it already did within this window: then it offers the reload instead (no loop). */
export const CHUNK_RELOAD_WINDOW_MS = 60_000;
