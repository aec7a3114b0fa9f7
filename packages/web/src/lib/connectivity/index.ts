import { ConnectivityMonitor, pingProbe } from './connectivity-monitor';
import { RateLimitNotice } from './rate-limit';

/**
 * The dashboard's one connectivity flag and throttling notice (spec 3 §4, §8), fed by the SDK
 * interceptor (lib/sdk.ts) and shown by app/platform's banners.
 */
export const connectivity = new ConnectivityMonitor(pingProbe(window.location.origin));
export const rateLimitNotice = new RateLimitNotice();

export { isChunkLoadError, loadChunk, withTimeout } from './timeouts';
