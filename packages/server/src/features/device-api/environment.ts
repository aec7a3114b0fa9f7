/**
 * The environment of one service in the target state (dialect §4.2): later layers win,
 * image (the release composition) → fleet env → service env → device env → device-service
 * env. Pure, so the precedence is tested on its own.
 */
export type Vars = Record<string, string>;

export interface EnvironmentLayers {
  image?: Vars;
  application?: Vars;
  service?: Vars;
  device?: Vars;
  deviceService?: Vars;
}

export function mergeServiceEnvironment(layers: EnvironmentLayers): Vars {
  return { ...layers.image, ...layers.application, ...layers.service, ...layers.device, ...layers.deviceService };
}

/** The device's `config`: fleet config vars, then the device's own (device wins). */
export function mergeConfig(application: Vars = {}, device: Vars = {}): Vars {
  return { ...application, ...device };
}

/** A composition's `environment`, which may be a map or a `KEY=value` list. */
export function compositionEnvironment(value: unknown): Vars {
  const out: Vars = {};
  if (Array.isArray(value)) {
    for (const item of value) {
      if (typeof item !== 'string') continue;
      const i = item.indexOf('=');
      if (i > 0) out[item.slice(0, i)] = item.slice(i + 1);
    }
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) out[k] = String(v);
  }
  return out;
}
