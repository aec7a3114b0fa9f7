import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { registerDeviceRules } from './device.hooks.js';

/** Device core rules (identity, pins, moves, reported fields, deletion). */
export function setup(_app: FastifyInstance, rules: Rules): void {
  registerDeviceRules(rules);
}
