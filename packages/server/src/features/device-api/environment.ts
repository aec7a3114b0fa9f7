/**
 * Helpers of the target state's environments. The precedence of the levels itself is the
 * model's (`effectiveEnvironment`, `effectiveConfig` in @flotilla/model), shared with
 * `GET /device/{uuid}/effective-variables`.
 */
export type Vars = Record<string, string>;

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
