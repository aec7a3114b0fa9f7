/**
 * Variable name rules (spec 2 §5 "Variables"). Pure: the server enforces them on every write
 * of a variable resource, the dashboard runs the same checks in its forms. The lists below
 * are ours (the spec names the rules, not the lists); docs/decisions.md records them.
 */

/** Prefixes of the names that configure the device agent and the host OS. */
export const RESERVED_NAMESPACES = ['RESIN_', 'BALENA_'] as const;

const bothNamespaces = (names: readonly string[]): string[] => RESERVED_NAMESPACES.flatMap((ns) => names.map((n) => `${ns}${n}`));

/**
 * Names no variable may take: the bare namespace names and what the device agent itself sets
 * in every container (the API key, ids, the agent's address), which a variable would shadow.
 */
export const RESERVED_NAMES: readonly string[] = [
  'RESIN',
  'BALENA',
  ...bothNamespaces([
    'API_KEY',
    'API_URL',
    'APP_ID',
    'APP_NAME',
    'APP_UUID',
    'APP_LOCK_PATH',
    'DEVICE_UUID',
    'DEVICE_TYPE',
    'DEVICE_ARCH',
    'DEVICE_NAME_AT_INIT',
    'HOST_OS_VERSION',
    'SERVICE_NAME',
    'SUPERVISOR_ADDRESS',
    'SUPERVISOR_API_KEY',
    'SUPERVISOR_HOST',
    'SUPERVISOR_PORT',
    'SUPERVISOR_VERSION',
  ]),
];

/**
 * Configuration names the device agent and the host OS understand (the Configuration page's
 * whitelist): the agent's settings and the host's firewall and discoverability switches.
 */
export const WHITELISTED_CONFIG_NAMES: readonly string[] = bothNamespaces([
  'SUPERVISOR_POLL_INTERVAL',
  'SUPERVISOR_LOCAL_MODE',
  'SUPERVISOR_CONNECTIVITY_CHECK',
  'SUPERVISOR_LOG_CONTROL',
  'SUPERVISOR_DELTA',
  'SUPERVISOR_DELTA_VERSION',
  'SUPERVISOR_DELTA_REQUEST_TIMEOUT',
  'SUPERVISOR_DELTA_APPLY_TIMEOUT',
  'SUPERVISOR_DELTA_RETRY_COUNT',
  'SUPERVISOR_DELTA_RETRY_INTERVAL',
  'SUPERVISOR_INSTANT_UPDATE_TRIGGER',
  'SUPERVISOR_OVERRIDE_LOCK',
  'SUPERVISOR_PERSISTENT_LOGGING',
  'SUPERVISOR_VPN_CONTROL',
  'SUPERVISOR_HARDWARE_METRICS',
  'SUPERVISOR_DEVELOPMENT_MODE',
  'HOST_FIREWALL_MODE',
  'HOST_DISCOVERABILITY',
]);

/** Families of whitelisted configuration names: boot and kernel settings of the host OS. */
export const WHITELISTED_CONFIG_NAMESPACES: readonly string[] = bothNamespaces(['HOST_CONFIG_', 'HOST_EXTLINUX_', 'HOST_CONFIGFS_', 'HOST_ODMDATA_']);

/** Spec 2 §5: local mode is the configuration variable RESIN_SUPERVISOR_LOCAL_MODE set to 1. */
export const LOCAL_MODE_VARIABLE = 'RESIN_SUPERVISOR_LOCAL_MODE';

export const ENVIRONMENT_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]*$/;
export const CONFIG_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_:]*$/;

export const VARIABLE_MESSAGES = {
  mandatoryName: 'A variable name cannot be empty.',
  invalidEnvironmentName: 'Environment variables should start with a letter and only contain letters, digits and underscores.',
  invalidConfigName: 'Configuration variables should start with a letter and only contain letters, digits, underscores or a colon.',
  reservedName: 'This environment variable is reserved and cannot be used.',
  reservedNamespace: `Variables beginning with ${RESERVED_NAMESPACES.join(', ')} configure OS features. They must be named as per the documentation and managed on the Configuration page.`,
  configOnConfigurationPage: 'Configuration variables are managed through the Configuration page.',
  // The spec states the rule without a message.
  configOutsideNamespace: `Configuration variables must begin with ${RESERVED_NAMESPACES.join(' or ')}.`,
} as const;

export type VariableKind = 'environment' | 'config';

const inReservedNamespace = (name: string) => RESERVED_NAMESPACES.some((ns) => name.startsWith(ns));

/** A name on the Configuration page's whitelist (exact, or in one of its families). */
export function isWhitelistedConfigName(name: string): boolean {
  return WHITELISTED_CONFIG_NAMES.includes(name) || WHITELISTED_CONFIG_NAMESPACES.some((ns) => name.startsWith(ns) && name.length > ns.length);
}

/**
 * Why `name` cannot name a variable of `kind`, or undefined when it can. Environment kinds:
 * fleet, service, device, device-service and build environment variables; config kinds:
 * fleet and device configuration variables.
 */
export function variableNameProblem(kind: VariableKind, name: string | null | undefined): string | undefined {
  if (name === null || name === undefined || name.trim() === '') return VARIABLE_MESSAGES.mandatoryName;
  const pattern = kind === 'environment' ? ENVIRONMENT_NAME_PATTERN : CONFIG_NAME_PATTERN;
  if (!pattern.test(name)) return kind === 'environment' ? VARIABLE_MESSAGES.invalidEnvironmentName : VARIABLE_MESSAGES.invalidConfigName;
  if (RESERVED_NAMES.includes(name)) return VARIABLE_MESSAGES.reservedName;
  if (kind === 'environment') {
    // A whitelisted name gets the more precise message rather than the namespace one.
    if (isWhitelistedConfigName(name)) return VARIABLE_MESSAGES.configOnConfigurationPage;
    if (inReservedNamespace(name)) return VARIABLE_MESSAGES.reservedNamespace;
    return undefined;
  }
  if (!isWhitelistedConfigName(name) && !inReservedNamespace(name)) return VARIABLE_MESSAGES.configOutsideNamespace;
  return undefined;
}

/** One configuration variable of a device type's schema (spec 2 §3 config variable schema property). */
export interface ConfigVarProperty {
  description: string;
  type: 'string' | 'integer' | 'boolean';
  enum?: string[];
  default?: string;
  /** How the dashboard shows and edits the value: a duration, a size, a comma-separated list. */
  format?: 'milliseconds' | 'megabytes' | 'list';
  will_reboot?: boolean;
}

/**
 * The body of `GET /config/vars` as balena clients read it (balena-sdk
 * `models.config.getConfigVarSchema`, balena-cli `env set`): the name rules above and the
 * JSON schema of the configuration variables the device type accepts (none without a type).
 */
export function configVarsDocument(properties: Record<string, ConfigVarProperty>): {
  reservedNames: string[];
  reservedNamespaces: string[];
  invalidRegex: string;
  whiteListedNames: string[];
  whiteListedNamespaces: string[];
  blackListedNames: string[];
  configVarSchema: { $schema: string; type: 'object'; properties: Record<string, ConfigVarProperty> };
} {
  return {
    reservedNames: [...RESERVED_NAMES],
    reservedNamespaces: [...RESERVED_NAMESPACES],
    // What makes a name invalid (the complement of ENVIRONMENT_NAME_PATTERN), as balena sends it.
    invalidRegex: String(/^[^A-Za-z]|[^A-Za-z0-9_]/),
    whiteListedNames: [...WHITELISTED_CONFIG_NAMES],
    whiteListedNamespaces: [...WHITELISTED_CONFIG_NAMESPACES],
    blackListedNames: [],
    configVarSchema: { $schema: 'http://json-schema.org/draft-06/schema#', type: 'object', properties },
  };
}
