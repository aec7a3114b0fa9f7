import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { configVarsRoutes } from './config-vars.routes.js';
import { effectiveVariablesRoutes } from './effective-variables.routes.js';
import { registerVariableHistoryRules } from './variable-history.hooks.js';
import { registerVariableRules } from './variable.hooks.js';

/**
 * Environment and config variables: name and service rules; the config variable catalogue;
 * what a device effectively gets; the history of their writes.
 */
export async function setup(app: FastifyInstance, rules: Rules): Promise<void> {
  registerVariableRules(rules);
  // After the rules above, so a refused write is refused before its history is read.
  registerVariableHistoryRules(rules);
  await app.register(configVarsRoutes, { db: app.context.db });
  await app.register(effectiveVariablesRoutes, { db: app.context.db });
}
