import type { HookBody } from '../../infra/odata/index.js';

/**
 * Rule: every change to a release refreshes update_timestamp (server-maintained). The
 * dashboard shows a running release idle for too long as timeout (`releaseDisplayStatus`).
 */
export function touchRelease(body: HookBody<'release', 'PATCH'>, now: number): void {
  body.update_timestamp = new Date(now);
}
