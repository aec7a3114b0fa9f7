import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { preferencesConfigRoutes } from './preferences-config.routes.js';
import { registerUserPreferenceRules } from './user-preferences.hooks.js';

/** User preferences and API key edits by their owner; the preferences' configuration. */
export async function setup(app: FastifyInstance, rules: Rules): Promise<void> {
  registerUserPreferenceRules(rules);
  await app.register(preferencesConfigRoutes, { staging: app.context.config.staging === true });
}
