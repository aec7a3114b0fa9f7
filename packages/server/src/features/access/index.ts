import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { registerFleetAccessRules } from './access.hooks.js';

/** Fleet membership rules. */
export function setup(_app: FastifyInstance, rules: Rules): void {
  registerFleetAccessRules(rules);
}
