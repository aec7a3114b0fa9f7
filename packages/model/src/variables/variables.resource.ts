import type { ResourceDef } from '../types.js';

/**
 * Variables (spec 2 §3 "Variables", §5; dialect §3 "Key/value tables"): name/value pairs
 * attached to a fleet, a device, a service or a service on one device. Environment
 * variables reach the containers, configuration variables the device agent and the host
 * OS; build variables only the builder. Each `(parent, name)` is unique, which the SDK's
 * upsert relies on (a duplicate POST answers 409, then it PATCHes by filter). The name
 * rules are in ../variables.ts.
 */

const common = <P extends string, R extends string>(parent: P, references: R) =>
  [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: parent, type: 'ForeignKey', references, required: true, writable: 'create', onDelete: 'cascade' },
    { name: 'name', type: 'Short Text', required: true, maxLength: 255 },
    // At most VARIABLE_VALUE_MAX_LENGTH characters: a rule with its own message (./limits.ts).
    { name: 'value', type: 'Text', required: true },
  ] as const satisfies ResourceDef['fields'];

/** A variable resource; its literal type keeps the field names (../types.ts derives rows from it). */
function variable<N extends string, P extends string, R extends string = P>(name: N, parent: P, references?: R) {
  return {
    name,
    fields: common(parent, references ?? (parent as string as R)),
    unique: [[parent, 'name']],
  } as const satisfies ResourceDef;
}

export const application_environment_variable = variable('application_environment_variable', 'application');
export const application_config_variable = variable('application_config_variable', 'application');
/** Build-time variables (docker build arguments); they never reach a device's target state. */
export const build_environment_variable = variable('build_environment_variable', 'application');
export const service_environment_variable = variable('service_environment_variable', 'service');
export const device_environment_variable = variable('device_environment_variable', 'device');
export const device_config_variable = variable('device_config_variable', 'device');
/** A device's override of one service's variable: the parent is that service on that device. */
export const device_service_environment_variable = variable('device_service_environment_variable', 'service_install');

/** The variable resources, by kind of name rule (../variables.ts). */
export const ENVIRONMENT_VARIABLE_RESOURCES = [
  'application_environment_variable',
  'build_environment_variable',
  'service_environment_variable',
  'device_environment_variable',
  'device_service_environment_variable',
] as const;
export const CONFIG_VARIABLE_RESOURCES = ['application_config_variable', 'device_config_variable'] as const;
export type VariableResource = (typeof ENVIRONMENT_VARIABLE_RESOURCES)[number] | (typeof CONFIG_VARIABLE_RESOURCES)[number];
