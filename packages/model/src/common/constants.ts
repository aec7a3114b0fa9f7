/** Business constants from the spec (1 §9, 2 §9). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 64;
export const SESSION_TOKEN_LIFETIME_SECONDS = 36 * 60 * 60;
export const TOKEN_REFRESH_INTERVAL_MS = 60 * 60 * 1000;
/** Sensitive actions need re-verification this long after authTime. */
export const SESSION_VALIDITY_FROM_AUTH_TIME_MS = 20 * 60 * 1000;
export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_FAILURE_WINDOW_SECONDS = 2 * 60 * 60;
export const HEADER_USERNAME_MAX_CHARS = 20;
export const SIDEBAR_WIDTH_OPEN = 220;
export const SIDEBAR_WIDTH_COLLAPSED = 56;
export const FLEET_NAME_MIN_LENGTH = 4;
export const FLEET_NAME_MAX_LENGTH = 100;
export const FLEET_LIST_REFETCH_MS = 8000;
/** Spec 2 §9: a name suggestion draws again up to 500 times to avoid existing names. */
export const APPLICATION_NAME_SUGGESTION_RETRIES = 500;
/** Spec 2 §9: name availability (rename) checks are cached 8 seconds. */
export const APPLICATION_NAME_AVAILABILITY_CACHE_MS = 8000;
/** Spec 2 §9: fleet grid lens cards are at least 370 px wide. */
export const FLEET_GRID_CARD_MIN_WIDTH_PX = 370;
export const LOGO_MAX_BYTES = 1_000_000;
export const REQUEST_BODY_LIMIT_BYTES = 1_048_576;
