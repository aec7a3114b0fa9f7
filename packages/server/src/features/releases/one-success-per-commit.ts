import type { Rules } from '../../infra/app/context.js';

/**
 * Rule (dialect §3): a fleet has at most one successful release per commit. The partial
 * unique index `release_one_success_per_commit` (migration 0006) enforces it for every
 * write, concurrent ones included; a second one is 409 with this message.
 */
export const ONE_SUCCESS_PER_COMMIT_MESSAGE = 'A successful release with this commit already exists in this fleet';

export function registerOneSuccessPerCommit(rules: Rules): void {
  rules.registerConstraintMessage('release_one_success_per_commit', ONE_SUCCESS_PER_COMMIT_MESSAGE);
}
