import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { registerTeamRules } from './team.hooks.js';

/** Teams: name, membership and fleet access rules. */
export function setup(_app: FastifyInstance, rules: Rules): void {
  registerTeamRules(rules);
}
