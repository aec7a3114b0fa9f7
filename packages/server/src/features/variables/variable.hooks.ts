import { CONFIG_VARIABLE_RESOURCES, ENVIRONMENT_VARIABLE_RESOURCES, type VariableResource } from '@flotilla/model';
import type { Rules } from '../../infra/app/context.js';
import { checkLocalMode } from './local-mode.js';
import { checkVariableName } from './variable-name.js';
import { checkConfigValues, checkNewConfigValue, checkValueLength } from './variable-value.js';
import { checkServiceExists, checkServiceInstallExists, checkServiceOfDeviceFleet } from './variable-service.js';

const isConfig = (resource: VariableResource): resource is (typeof CONFIG_VARIABLE_RESOURCES)[number] => (CONFIG_VARIABLE_RESOURCES as readonly string[]).includes(resource);

/**
 * Variables (spec 2 §5): name rules on create and rename, value limits (issue 16: length,
 * and the device type's schema for configuration variables), service checks for
 * service-scoped variables. A duplicate (parent, name) is the database's unique constraint: 409 'Unique
 * key constraint violated', which the SDK's upsert turns into a PATCH. The
 * `device-state:changed` announcement of every variable write is the device API's rule
 * (device-api/state-change.hooks.ts).
 */
export function registerVariableRules(rules: Rules): void {
  const resources: VariableResource[] = [...ENVIRONMENT_VARIABLE_RESOURCES, ...CONFIG_VARIABLE_RESOURCES];
  for (const resource of resources) {
    rules.register(resource, 'POST', {
      before: async ({ tx, body }) => {
        checkVariableName(resource, 'POST', body);
        checkValueLength(body.name, body);
        if (isConfig(resource)) await checkNewConfigValue(tx, resource, body);
        if (resource === 'service_environment_variable') await checkServiceExists(tx, body);
        if (resource === 'device_service_environment_variable') await checkServiceInstallExists(tx, body);
      },
      after: async ({ tx, ids }) => {
        if (resource === 'device_service_environment_variable') await checkServiceOfDeviceFleet(tx, ids);
        if (resource === 'device_config_variable') await checkLocalMode(tx, ids);
      },
    });
    rules.register(resource, 'PATCH', {
      before: ({ body }) => {
        checkVariableName(resource, 'PATCH', body);
        checkValueLength(body.name, body);
      },
      after: async ({ tx, ids }) => {
        if (isConfig(resource)) await checkConfigValues(tx, resource, ids);
        if (resource === 'device_config_variable') await checkLocalMode(tx, ids);
      },
    });
  }
}
