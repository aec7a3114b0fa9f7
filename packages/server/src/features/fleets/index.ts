import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { registerApplicationRules } from './application.hooks.js';

/** Fleets (the `application` resource): identity, transfer, device type and deletion rules. */
export function setup(_app: FastifyInstance, rules: Rules): void {
  registerApplicationRules(rules);
}
