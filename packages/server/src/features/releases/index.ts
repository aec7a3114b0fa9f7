import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { registerReleaseRules } from './release.hooks.js';

/** Releases and images as `balena deploy` writes them (image locations name the app's registry host). */
export function setup(_app: FastifyInstance, rules: Rules): void {
  registerReleaseRules(rules);
}
