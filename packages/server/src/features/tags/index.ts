import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { registerTagRules } from './tag.hooks.js';

/** Tags of devices, fleets and releases. */
export function setup(_app: FastifyInstance, rules: Rules): void {
  registerTagRules(rules);
}
