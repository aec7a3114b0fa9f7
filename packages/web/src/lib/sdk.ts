import { getSdk } from 'balena-sdk';

/**
 * The dashboard's one data client: the published balena-sdk pointed at our own origin.
 * In a browser it keeps the session token in localStorage. Where the SDK has no method,
 * use `sdk.pine` or `sdk.request` — never a second hand-written client.
 */
export const sdk = getSdk({
  apiUrl: window.location.origin,
  // The server answers 429 with Retry-After; the UI reports it instead of stalling.
  retryRateLimitedRequests: false,
});

export type Sdk = typeof sdk;
