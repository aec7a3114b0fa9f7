import { getSdk } from 'balena-sdk';
import { connectivity, rateLimitNotice } from './connectivity';
import { REQUEST_LIMIT_PER_MINUTE } from './connectivity/constants';
import { connectivityInterceptor, retryRateLimitedRequests } from './connectivity/data-layer';

/**
 * The dashboard's one data client: the published balena-sdk pointed at our own origin.
 * In a browser it keeps the session token in localStorage. Where the SDK has no method,
 * use `sdk.pine` or `sdk.request` — never a second hand-written client.
 */
export const sdk = getSdk({
  apiUrl: window.location.origin,
  // Spec 3 §9 "Request limit is 350 with retry on rate limiting": at most 350 requests a
  // minute, and a 429 is sent again after its Retry-After, within the bounds of
  // lib/connectivity/rate-limit.ts (reads only, at most 3 times, waits up to a minute).
  requestLimit: REQUEST_LIMIT_PER_MINUTE,
  requestLimitInterval: 60_000,
  retryRateLimitedRequests,
});

// After the SDK's own interceptors, so it sees every answer before the SDK's 429 retry does.
sdk.interceptors.push(connectivityInterceptor(connectivity, rateLimitNotice));

export type Sdk = typeof sdk;
