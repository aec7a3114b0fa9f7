import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { registerApplicationRules } from './application.hooks.js';

/**
 * What other features use from fleets: the devices feature applies the same support-access
 * rule to devices and removes a deleted device's actor as a deleted fleet's.
 */
export { deleteUnusedActors } from './application-delete.js';
export { checkSupportAccessExpiry } from './support-access.js';

/** Fleets (the `application` resource): identity, transfer, device type and deletion rules. */
export function setup(_app: FastifyInstance, rules: Rules): void {
  registerApplicationRules(rules);
}
