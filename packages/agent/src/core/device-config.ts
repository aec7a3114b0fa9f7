/**
 * Configuration variables as the agent applies them (issue 16 item 3), pure. The target
 * state's `config` holds the fleet's and the device's configuration variables, merged by the
 * server (device over fleet). The agent applies three itself — the poll interval, local mode
 * and the update-lock override — under either prefix (`RESIN_SUPERVISOR_…` or
 * `BALENA_SUPERVISOR_…`, as balena's supervisor reads both); every other one goes to the host's
 * config hook (`FLOTILLA_CONFIG_HOOK`), which maps them to `config.txt`-style settings. A
 * variable whose schema property says `will_reboot` needs a reboot once applied; the reboot
 * waits for the update lock unless the lock is overridden.
 */

/** The configuration variables the agent applies itself (without their RESIN_/BALENA_ prefix). */
export const AGENT_CONFIG_SUFFIXES = ['SUPERVISOR_POLL_INTERVAL', 'SUPERVISOR_LOCAL_MODE', 'SUPERVISOR_OVERRIDE_LOCK'] as const;

const PREFIX_RE = /^(RESIN|BALENA)_/;

/** The name without its RESIN_/BALENA_ prefix: both spellings mean one variable. */
export const configSuffix = (name: string): string => name.replace(PREFIX_RE, '');

/** The BALENA_ spelling of a name (the device-type schemas use it). */
export const canonicalConfigName = (name: string): string => (PREFIX_RE.test(name) ? `BALENA_${configSuffix(name)}` : name);

export function isAgentConfig(name: string): boolean {
  return PREFIX_RE.test(name) && (AGENT_CONFIG_SUFFIXES as readonly string[]).includes(configSuffix(name));
}

/** The variables for the host (every one the agent does not apply itself), in name order. */
export function hostConfig(config: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(config).sort()) if (!isAgentConfig(name)) out[name] = config[name]!;
  return out;
}

const truthy = (value: string | undefined) => value === '1' || value === 'true';

/** The value of a supervisor flag under either prefix (BALENA_ wins when both are set). */
function flag(config: Record<string, string>, suffix: string): string | undefined {
  return config[`BALENA_${suffix}`] ?? config[`RESIN_${suffix}`];
}

/** Local mode (`RESIN_SUPERVISOR_LOCAL_MODE=1`): the agent stops applying the cloud's release but keeps reporting. */
export const isLocalMode = (config: Record<string, string>): boolean => truthy(flag(config, 'SUPERVISOR_LOCAL_MODE'));

/** `RESIN_SUPERVISOR_OVERRIDE_LOCK=1`: the update lock is ignored (updates and config reboots go through it). */
export const overridesLock = (config: Record<string, string>): boolean => truthy(flag(config, 'SUPERVISOR_OVERRIDE_LOCK'));

/** Names (either spelling) whose value differs between two configs; a removed name counts. */
export function changedNames(prev: Record<string, string>, next: Record<string, string>): string[] {
  const names = new Set([...Object.keys(prev), ...Object.keys(next)]);
  return [...names].filter((n) => prev[n] !== next[n]).sort();
}

/** The names of a device type's config schema that need a reboot (`will_reboot`), BALENA_ spelling. */
export function rebootNames(schema: Record<string, { will_reboot?: boolean }>): Set<string> {
  return new Set(Object.entries(schema).filter(([, p]) => p.will_reboot === true).map(([n]) => canonicalConfigName(n)));
}

/** The changed names that need a reboot once applied. */
export function namesNeedingReboot(changed: readonly string[], reboot: ReadonlySet<string>): string[] {
  return changed.filter((n) => reboot.has(canonicalConfigName(n)));
}

/** What the config hook reads on its stdin (JSON). */
export interface ConfigHookDocument {
  /** The document's shape; a new shape gets a new number. */
  version: 1;
  uuid: string;
  deviceType: string;
  /** Every configuration variable the agent does not apply itself (name → value), the whole set. */
  config: Record<string, string>;
  /** The names added, changed or removed since the last document the hook accepted (all of them the first time). */
  changed: string[];
  /** The changed names whose device-type schema says `will_reboot`: the agent reboots once the hook succeeded. */
  reboot: string[];
}

export function hookDocument(uuid: string, deviceType: string, applied: Record<string, string> | null, next: Record<string, string>, reboot: ReadonlySet<string>): ConfigHookDocument {
  const changed = changedNames(applied ?? {}, next);
  return { version: 1, uuid, deviceType, config: next, changed, reboot: namesNeedingReboot(changed, reboot) };
}

/**
 * Whether a pending reboot may go now: never while the update lock is held, unless the lock
 * is overridden (`…_OVERRIDE_LOCK=1`), as for updates.
 */
export function rebootAllowed(locked: boolean, config: Record<string, string>): boolean {
  return !locked || overridesLock(config);
}

/** Per service, the names of environment variables that differ (services only in one side are left out). */
export function changedEnvironments(
  prev: Record<string, Record<string, string>>,
  next: Record<string, Record<string, string>>,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [service, env] of Object.entries(next)) {
    const before = prev[service];
    if (before === undefined) continue;
    const names = changedNames(before, env);
    if (names.length > 0) out[service] = names;
  }
  return out;
}
