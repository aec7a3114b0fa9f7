import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { registerApiKeyRevocationRules } from './api-key-revocation.hooks.js';
import { deviceApiRoutes } from './device-api.routes.js';
import { registerStateChangeRules } from './state-change.hooks.js';
import { StateChanges } from './state-changes.js';

/** What other features use: the bus channel announcing target-state changes (the cloud link notifies devices). */
export { DEVICE_STATE_CHANGED, type DeviceStateChanged } from './state-changes.js';
/** The parts of a device's target state, with every level of its variables (variables' effective-variables endpoint). */
export { directParts, loadTargetParts, type TargetParts } from './target-state.js';

/**
 * The device API: its rules announce target-state changes (through this app's
 * `StateChanges`, which its caches listen to) and revoke cached API keys; its routes serve
 * registration, target state and state reports.
 */
export async function setup(app: FastifyInstance, rules: Rules): Promise<void> {
  const stateChanges = new StateChanges(app.context.bus);
  registerStateChangeRules(rules, stateChanges);
  registerApiKeyRevocationRules(rules);
  await app.register(deviceApiRoutes, { db: app.context.db, stateChanges });
}
