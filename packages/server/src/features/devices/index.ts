import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { registerDeviceRules } from './device.hooks.js';

/**
 * What other features use from devices: the device API's registration prepares a device and
 * checks its architecture as a `/v7` POST does.
 */
export { checkDeviceArchitecture } from './device-architecture.js';
export { prepareDevice } from './device-identity.js';
/** Live-operation rights (terminal, host terminal, diagnostics, clearing logs) for issue 15's features. */
export { deviceOperationAllowed } from './device-operations.js';

/** Device core rules (identity, pins, moves, reported fields, deletion). */
export function setup(_app: FastifyInstance, rules: Rules): void {
  registerDeviceRules(rules);
}
