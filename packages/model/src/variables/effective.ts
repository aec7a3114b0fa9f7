import type { ConfigVarProperty } from './variables.rules.js';

/**
 * What a device really gets (issue 16 "what does this device get?"): the effective value of
 * every variable, the level that supplied it and the lower levels it hides. Pure: the
 * server's target-state builder and `GET /device/{uuid}/effective-variables` both compute
 * with these functions, the dashboard shows their result.
 *
 * Precedence (dialect §4.2), lowest first: for a service's environment, the release
 * composition's `environment` (image) → fleet → fleet service → device → device service; for
 * configuration, fleet → device, and a device type's schema default only where neither sets
 * the name (shown, never sent: the device applies its own default).
 */
export type VariableLevel =
  | 'image' // the release composition's environment of the service
  | 'fleet' // application_environment_variable
  | 'fleet-service' // service_environment_variable
  | 'device' // device_environment_variable
  | 'device-service' // device_service_environment_variable
  | 'fleet-config' // application_config_variable
  | 'device-config' // device_config_variable
  | 'schema-default'; // default of the device type's config schema: shown, NOT sent to the device

export interface EffectiveVariable {
  name: string;
  value: string;
  level: VariableLevel;
  /** The lower levels this value hides, nearest first. */
  overrides: { level: VariableLevel; value: string }[];
}

export type VariableValues = Record<string, string>;

/** The layers of one service's environment, each a name → value map. */
export interface EnvironmentLayers {
  image?: VariableValues;
  fleet?: VariableValues;
  fleetService?: VariableValues;
  device?: VariableValues;
  deviceService?: VariableValues;
}

/** The levels, in the order they are written into one list (lowest first). */
export const ENVIRONMENT_LEVELS = ['image', 'fleet', 'fleet-service', 'device', 'device-service'] as const satisfies readonly VariableLevel[];
export const CONFIG_LEVELS = ['fleet-config', 'device-config', 'schema-default'] as const satisfies readonly VariableLevel[];

const byName = (a: EffectiveVariable, b: EffectiveVariable) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Stacks the layers (lowest first): the top of each name's stack wins, the rest is what it overrides. */
function stack(layers: readonly (readonly [VariableLevel, VariableValues | undefined])[]): EffectiveVariable[] {
  const stacks = new Map<string, { level: VariableLevel; value: string }[]>();
  for (const [level, values] of layers) {
    if (!values) continue;
    for (const [name, value] of Object.entries(values)) {
      const s = stacks.get(name);
      if (s) s.push({ level, value });
      else stacks.set(name, [{ level, value }]);
    }
  }
  const out: EffectiveVariable[] = [];
  for (const [name, s] of stacks) {
    const top = s[s.length - 1]!;
    out.push({ name, value: top.value, level: top.level, overrides: s.slice(0, -1).reverse() });
  }
  return out.sort(byName);
}

/** The effective environment of one service on one device, sorted by name. */
export function effectiveEnvironment(layers: EnvironmentLayers): EffectiveVariable[] {
  return stack([
    ['image', layers.image],
    ['fleet', layers.fleet],
    ['fleet-service', layers.fleetService],
    ['device', layers.device],
    ['device-service', layers.deviceService],
  ]);
}

/**
 * The effective configuration of a device, sorted by name: the fleet's configuration
 * variables overridden by the device's; with a schema (the device type's), the default of
 * every schema property that neither level sets, as level 'schema-default'.
 */
export function effectiveConfig(fleet: VariableValues, device: VariableValues, schema?: Record<string, ConfigVarProperty>): EffectiveVariable[] {
  const set = stack([
    ['fleet-config', fleet],
    ['device-config', device],
  ]);
  if (!schema) return set;
  const named = new Set(set.map((v) => v.name));
  for (const [name, property] of Object.entries(schema)) {
    if (named.has(name) || property.default === undefined) continue;
    set.push({ name, value: property.default, level: 'schema-default', overrides: [] });
  }
  return set.sort(byName);
}

/**
 * The name → value map of effective variables (what the target state sends); `sentOnly`
 * leaves out the schema defaults, which the device does not get.
 */
export function effectiveValues(vars: readonly EffectiveVariable[], opts: { sentOnly?: boolean } = {}): VariableValues {
  const entries: [string, string][] = [];
  for (const v of vars) if (!(opts.sentOnly && v.level === 'schema-default')) entries.push([v.name, v.value]);
  return Object.fromEntries(entries);
}

/**
 * The answer of `GET /device/{uuid}/effective-variables`: the device, its target release, its
 * effective configuration (schema defaults included, marked) and the effective environment of
 * every service of that release (none without one).
 */
export interface EffectiveVariablesResponse {
  device: { id: number; uuid: string; device_type: string | null };
  release: { id: number; commit: string } | null;
  config: EffectiveVariable[];
  services: { id: number; service_name: string; environment: EffectiveVariable[] }[];
}
