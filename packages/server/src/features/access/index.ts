import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { registerFleetAccessRules } from './access.hooks.js';

// Public API (what other features may import): `acceptUsername`, the rule that lets a
// membership POST name its user by `username`; organizations and teams register it too.
export { acceptUsername } from './username-for-user.js';

/** Fleet membership rules. */
export function setup(_app: FastifyInstance, rules: Rules): void {
  registerFleetAccessRules(rules);
}
