/**
 * The release composition Flotilla supports: the one definition the CLI (a compose file
 * before a deploy), the server (a release's `composition` on create and update) and the
 * agent (what it applies on a device) share. The supported keys are exactly what
 * flotilla-agent applies; keys it does not apply but whose absence cannot widen what a
 * container may do are accepted and reported as ignored (balena-cli sends them); every
 * other key is refused, each problem naming the service and key (docs/decisions.md
 * "Issue 14 — composition").
 */

export const SUPPORTED_SERVICE_KEYS = [
  'build',
  'image',
  'command',
  'entrypoint',
  'environment',
  'labels',
  'volumes',
  'restart',
  'depends_on',
  'network_mode',
  'ports',
  'working_dir',
  'user',
  'hostname',
] as const;

/**
 * Service keys accepted and not applied: without them a container runs with no more rights
 * or reach than with them (no health checks, no resource limits, default logging, all
 * services on the fleet's one network).
 */
export const IGNORED_SERVICE_KEYS = [
  'container_name',
  'cpu_shares',
  'cpus',
  'dns',
  'domainname',
  'expose',
  'extra_hosts',
  'healthcheck',
  'init',
  'logging',
  'mem_limit',
  'mem_reservation',
  'networks',
  'stdin_open',
  'stop_grace_period',
  'stop_signal',
  'tty',
  'ulimits',
] as const;

export const SUPPORTED_BUILD_KEYS = ['context', 'dockerfile', 'args', 'labels', 'target'] as const;
export const SUPPORTED_TOP_LEVEL_KEYS = ['version', 'services', 'volumes'] as const;
/** Top-level keys accepted and not applied (besides compose's `x-*` extension fields). */
export const IGNORED_TOP_LEVEL_KEYS = ['networks'] as const;
export const RESTART_POLICIES = ['no', 'always', 'on-failure', 'unless-stopped'] as const;
export const NETWORK_MODES = ['bridge', 'host', 'none'] as const;

/** A compose file or a stored composition larger than this is refused (1 MiB). */
export const MAX_COMPOSITION_BYTES = 1024 * 1024;
/** At most this many services per release. */
export const MAX_COMPOSITION_SERVICES = 100;
/** `on-failure:N`: N at most this. */
export const MAX_RESTART_RETRIES = 10_000;

/** Service names as balena and the server's `service.service_name` accept them. */
const SERVICE_NAME = /^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,62}$/;
const VOLUME_NAME = /^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,254}$/;
const ENV_NAME = /^[^=\s]+$/;
// Single ports only (no ranges): what flotilla-agent maps.
const PORT = /^(\d{1,3}(\.\d{1,3}){3}:)?(\d{1,5}:)?\d{1,5}(\/(tcp|udp|sctp))?$/;
const RESTART = /^(no|always|unless-stopped|on-failure(:(\d{1,5}))?)$/;

export type RestartPolicyName = (typeof RESTART_POLICIES)[number];
export type NetworkMode = (typeof NETWORK_MODES)[number];

/** One service of a release's composition as stored (values in any shape compose allows). */
export interface CompositionService {
  build?: string | Record<string, unknown>;
  image?: string;
  command?: string | string[];
  entrypoint?: string | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  labels?: Record<string, string | number | boolean | null> | string[];
  volumes?: (string | { type?: 'volume'; source: string; target: string; read_only?: boolean })[];
  restart?: string;
  depends_on?: string[] | Record<string, unknown>;
  network_mode?: NetworkMode;
  ports?: (string | number)[];
  working_dir?: string;
  user?: string;
  hostname?: string;
  [ignored: string]: unknown;
}

export interface Composition {
  version?: string | number;
  services?: Record<string, CompositionService>;
  volumes?: Record<string, Record<string, never> | null>;
  [ignored: string]: unknown;
}

export interface CompositionCheck {
  /** Every reason to refuse the composition, each naming the service and key. */
  problems: string[];
  /** Keys accepted and not applied by the agent (`service "x": "healthcheck"`). */
  ignored: string[];
}

/**
 * `source`: a compose file before `flotilla deploy` (each service needs `build` or `image`;
 * `build` is checked key by key). `release`: a release's stored `composition` (images are
 * built; an image-only service's `image` may have been dropped; `{}` is a release with no
 * services yet, as balena's API allows).
 */
export type CompositionMode = 'source' | 'release';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isScalar = (v: unknown): v is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof v);

// --- normalisation (lenient: for values already checked) -------------------------------

/** A `KEY=value` list or a map (environment, labels, build args) as a map of strings; `KEY` alone is empty. */
export function stringMapOf(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(value)) {
    for (const entry of value) {
      const s = String(entry);
      const eq = s.indexOf('=');
      if (s === '' || eq === 0) continue;
      out[eq < 0 ? s : s.slice(0, eq)] = eq < 0 ? '' : s.slice(eq + 1);
    }
  } else if (isRecord(value)) {
    for (const [k, v] of Object.entries(value)) out[k] = v === null || v === undefined ? '' : String(v);
  }
  return out;
}

/** `depends_on` as a list of service names (compose's map form gives its keys). */
export function dependsOnOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (isRecord(value)) return Object.keys(value);
  return [];
}

export interface RestartPolicy {
  name: RestartPolicyName;
  /** `on-failure:N`'s N; 0 = no limit. */
  maximumRetryCount: number;
}

/** The restart policy of a service (balena's default `always`); undefined when it is not one we support. */
export function restartPolicyOf(value: unknown): RestartPolicy | undefined {
  if (value === undefined || value === null) return { name: 'always', maximumRetryCount: 0 };
  const m = typeof value === 'string' ? RESTART.exec(value) : null;
  if (!m) return undefined;
  const retries = m[3] === undefined ? 0 : Number(m[3]);
  if (retries > MAX_RESTART_RETRIES) return undefined;
  const name = (m[3] !== undefined ? 'on-failure' : value) as RestartPolicyName;
  return { name, maximumRetryCount: retries };
}

export interface PortMapping {
  /** `80/tcp` */
  container: string;
  hostIp?: string;
  hostPort?: string;
}

/** `[ip:][host:]container[/proto]` (no ranges); undefined when it is not one. */
export function parsePort(value: unknown): PortMapping | undefined {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !PORT.test(text)) return undefined;
  const [spec, proto = 'tcp'] = text.split('/');
  const parts = spec!.split(':');
  const container = `${parts[parts.length - 1]}/${proto}`;
  if (parts.length === 1) return { container };
  if (parts.length === 2) return { container, hostPort: parts[0]! };
  return { container, hostIp: parts[0]!, hostPort: parts[1]! };
}

export interface VolumeEntry {
  /** The composition's volume name. */
  source: string;
  target: string;
  readOnly: boolean;
}

/** A service's `volumes` entry (`name:/path[:ro|rw]` or the long form of a named volume), or why it is refused. */
export function parseVolumeEntry(entry: unknown): VolumeEntry | { problem: string } {
  let source: string;
  let target: string;
  let readOnly = false;
  const shown = typeof entry === 'string' ? entry : JSON.stringify(entry);
  if (typeof entry === 'string') {
    const [s = '', t, mode, ...rest] = entry.split(':');
    if (t === undefined && s.startsWith('/')) return { problem: `volume "${shown}" is an anonymous volume; only named volumes are supported` };
    if (t === undefined || rest.length > 0 || (mode !== undefined && mode !== 'ro' && mode !== 'rw')) {
      if (s.startsWith('/') || s.startsWith('.') || s.startsWith('~')) return { problem: `volume "${shown}" is a bind mount; only named volumes are supported` };
      return { problem: `volume "${shown}" must be "name:/path" or "name:/path:ro"` };
    }
    source = s;
    target = t;
    readOnly = mode === 'ro';
  } else if (isRecord(entry)) {
    if (entry.type !== undefined && entry.type !== 'volume') return { problem: `volume ${shown} is a ${String(entry.type)} mount; only named volumes are supported` };
    const extra = Object.keys(entry).filter((k) => !['type', 'source', 'target', 'read_only'].includes(k));
    if (extra.length) return { problem: `volume ${shown}: unsupported option "${extra[0]}"` };
    if (typeof entry.source !== 'string' || typeof entry.target !== 'string') return { problem: `volume ${shown} needs "source" and "target"` };
    if (entry.read_only !== undefined && typeof entry.read_only !== 'boolean') return { problem: `volume ${shown}: read_only must be true or false` };
    source = entry.source;
    target = entry.target;
    readOnly = entry.read_only === true;
  } else {
    return { problem: `volumes entries must be "name:/path" strings` };
  }
  if (source.startsWith('/') || source.startsWith('.') || source.startsWith('~')) return { problem: `volume "${shown}" is a bind mount; only named volumes are supported` };
  if (!VOLUME_NAME.test(source)) return { problem: `volume "${shown}" has an invalid name` };
  if (!target.startsWith('/')) return { problem: `volume "${shown}" must mount at an absolute path` };
  return { source, target, readOnly };
}

// --- the validator ------------------------------------------------------------------------

function checkStringMap(value: unknown, where: string, problems: string[]): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    for (const entry of value) {
      if (typeof entry !== 'string' || entry === '') {
        problems.push(`${where}: each entry must be a "KEY=value" string`);
        continue;
      }
      const eq = entry.indexOf('=');
      const key = eq < 0 ? entry : entry.slice(0, eq);
      if (!ENV_NAME.test(key)) problems.push(`${where}: invalid name "${key}"`);
    }
    return;
  }
  if (isRecord(value)) {
    for (const [key, v] of Object.entries(value)) {
      if (!ENV_NAME.test(key)) problems.push(`${where}: invalid name "${key}"`);
      if (v !== null && v !== undefined && !isScalar(v)) problems.push(`${where}: the value of "${key}" must be a string, number or boolean`);
    }
    return;
  }
  problems.push(`${where}: must be a map or a list of "KEY=value" strings`);
}

function checkBuild(value: unknown, where: string, mode: CompositionMode, problems: string[]): void {
  if (typeof value === 'string') {
    if (value === '') problems.push(`${where}: build.context must be a path`);
    return;
  }
  if (!isRecord(value)) {
    problems.push(`${where}: must be a context path or a map`);
    return;
  }
  // A release's build section records how images were built; only the compose file's is used.
  if (mode === 'release') return;
  for (const key of Object.keys(value)) {
    if (!(SUPPORTED_BUILD_KEYS as readonly string[]).includes(key)) {
      problems.push(`${where}: unsupported key "build.${key}" (supported: ${SUPPORTED_BUILD_KEYS.join(', ')})`);
    }
  }
  const context = value.context ?? '.';
  const dockerfile = value.dockerfile ?? 'Dockerfile';
  if (typeof context !== 'string' || context === '') problems.push(`${where}: build.context must be a path`);
  if (typeof dockerfile !== 'string' || dockerfile === '') problems.push(`${where}: build.dockerfile must be a path`);
  if (value.target !== undefined && typeof value.target !== 'string') problems.push(`${where}: build.target must be a string`);
  checkStringMap(value.args, `${where}: build.args`, problems);
  checkStringMap(value.labels, `${where}: build.labels`, problems);
}

function checkService(name: string, raw: unknown, declared: Set<string>, names: Set<string>, mode: CompositionMode, out: CompositionCheck): void {
  const { problems } = out;
  const where = `service "${name}"`;
  if (!SERVICE_NAME.test(name)) problems.push(`${where}: invalid service name (letters, digits, "_", "." and "-", at most 63 characters)`);
  if (!isRecord(raw)) {
    problems.push(`${where}: must be a map`);
    return;
  }
  for (const key of Object.keys(raw)) {
    if ((SUPPORTED_SERVICE_KEYS as readonly string[]).includes(key)) continue;
    if ((IGNORED_SERVICE_KEYS as readonly string[]).includes(key) || key.startsWith('x-')) out.ignored.push(`${where}: "${key}"`);
    else problems.push(`${where}: unsupported key "${key}" (supported: ${SUPPORTED_SERVICE_KEYS.join(', ')})`);
  }
  if (raw.build !== undefined) checkBuild(raw.build, where, mode, problems);
  if (raw.image !== undefined && (typeof raw.image !== 'string' || raw.image === '')) problems.push(`${where}: image must be an image reference`);
  if (mode === 'source' && raw.build === undefined && raw.image === undefined) problems.push(`${where}: needs "build" or "image"`);
  for (const key of ['command', 'entrypoint'] as const) {
    const v = raw[key];
    if (v !== undefined && v !== null && typeof v !== 'string' && !(Array.isArray(v) && v.every((x) => typeof x === 'string'))) {
      problems.push(`${where}: ${key}: must be a string or a list of strings`);
    }
  }
  checkStringMap(raw.environment, `${where}: environment`, problems);
  checkStringMap(raw.labels, `${where}: labels`, problems);
  if (raw.volumes !== undefined && raw.volumes !== null) {
    if (!Array.isArray(raw.volumes)) problems.push(`${where}: volumes must be a list of "name:/path" entries`);
    else {
      for (const entry of raw.volumes) {
        const v = parseVolumeEntry(entry);
        if ('problem' in v) problems.push(`${where}: ${v.problem}`);
        else if (!declared.has(v.source)) problems.push(`${where}: volume "${v.source}" is not declared under the top-level "volumes"`);
      }
    }
  }
  if (raw.restart !== undefined && restartPolicyOf(raw.restart) === undefined) {
    problems.push(`${where}: restart must be one of ${RESTART_POLICIES.join(', ')} (or on-failure:N, N ≤ ${MAX_RESTART_RETRIES})`);
  }
  if (raw.depends_on !== undefined) {
    const deps = Array.isArray(raw.depends_on) ? raw.depends_on : isRecord(raw.depends_on) ? Object.keys(raw.depends_on) : null;
    if (!deps || !deps.every((d) => typeof d === 'string')) problems.push(`${where}: depends_on must be a list of service names`);
    else {
      for (const dep of deps as string[]) {
        if (!names.has(dep)) problems.push(`${where}: depends_on names "${dep}", which is not a service of this ${mode === 'source' ? 'project' : 'release'}`);
        if (dep === name) problems.push(`${where}: depends_on names the service itself`);
      }
    }
  }
  if (raw.network_mode !== undefined && !(NETWORK_MODES as readonly unknown[]).includes(raw.network_mode)) {
    problems.push(`${where}: network_mode must be one of ${NETWORK_MODES.join(', ')}`);
  }
  if (raw.ports !== undefined) {
    if (!Array.isArray(raw.ports)) problems.push(`${where}: ports must be a list`);
    else for (const p of raw.ports) if (!parsePort(p)) problems.push(`${where}: port "${String(p)}" must look like "8080:80" or "80/udp" (no ranges)`);
  }
  for (const key of ['working_dir', 'user', 'hostname'] as const) {
    if (raw[key] !== undefined && (typeof raw[key] !== 'string' || raw[key] === '')) problems.push(`${where}: ${key} must be a non-empty string`);
  }
}

/** A cycle among `depends_on`, as its path (a → b → a). */
function findCycle(deps: Map<string, string[]>): string[] | undefined {
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, path: string[]): string[] | undefined => {
    if (state.get(name) === 'done') return undefined;
    if (state.get(name) === 'visiting') return [...path.slice(path.indexOf(name)), name];
    state.set(name, 'visiting');
    for (const dep of deps.get(name) ?? []) {
      const cycle = visit(dep, [...path, name]);
      if (cycle) return cycle;
    }
    state.set(name, 'done');
    return undefined;
  };
  for (const name of deps.keys()) {
    const cycle = visit(name, []);
    if (cycle) return cycle;
  }
  return undefined;
}

/** Checks a composition (a parsed compose file or a release's `composition`): every problem, and what is ignored. */
export function checkComposition(doc: unknown, mode: CompositionMode): CompositionCheck {
  const out: CompositionCheck = { problems: [], ignored: [] };
  const { problems } = out;
  if (!isRecord(doc)) {
    problems.push(mode === 'source' ? 'the compose file must be a map with "services"' : 'the composition must be an object with "services"');
    return out;
  }
  let size: number;
  try {
    size = new TextEncoder().encode(JSON.stringify(doc)).length;
  } catch {
    size = Infinity;
  }
  if (size > MAX_COMPOSITION_BYTES) {
    problems.push(`the composition is larger than ${MAX_COMPOSITION_BYTES} bytes`);
    return out;
  }
  for (const key of Object.keys(doc)) {
    if ((SUPPORTED_TOP_LEVEL_KEYS as readonly string[]).includes(key)) continue;
    if ((IGNORED_TOP_LEVEL_KEYS as readonly string[]).includes(key) || key.startsWith('x-')) out.ignored.push(`"${key}"`);
    else problems.push(`unsupported top-level key "${key}" (supported: ${SUPPORTED_TOP_LEVEL_KEYS.join(', ')})`);
  }
  if (doc.version !== undefined && typeof doc.version !== 'string' && typeof doc.version !== 'number') problems.push('"version" must be a string');
  const declared = new Set<string>();
  if (doc.volumes !== undefined && doc.volumes !== null) {
    if (!isRecord(doc.volumes)) problems.push('"volumes" must be a map of volume names');
    else {
      for (const [name, spec] of Object.entries(doc.volumes)) {
        if (!VOLUME_NAME.test(name)) problems.push(`volume "${name}": invalid name`);
        if (spec !== null && spec !== undefined && !(isRecord(spec) && Object.keys(spec).length === 0)) {
          problems.push(`volume "${name}": driver options are not supported (declare it as "${name}: {}")`);
        }
        declared.add(name);
      }
    }
  }
  if (doc.services === undefined && mode === 'release') return out;
  if (!isRecord(doc.services) || (mode === 'source' && Object.keys(doc.services).length === 0)) {
    problems.push('"services" must name at least one service');
    return out;
  }
  const names = Object.keys(doc.services);
  if (names.length > MAX_COMPOSITION_SERVICES) {
    problems.push(`at most ${MAX_COMPOSITION_SERVICES} services are supported (this one has ${names.length})`);
    return out;
  }
  const nameSet = new Set(names);
  for (const [name, raw] of Object.entries(doc.services)) checkService(name, raw, declared, nameSet, mode, out);
  if (problems.length === 0) {
    const deps = new Map(Object.entries(doc.services).map(([name, raw]) => [name, dependsOnOf((raw as Record<string, unknown>).depends_on)]));
    const cycle = findCycle(deps);
    if (cycle) problems.push(`depends_on forms a cycle: ${cycle.join(' → ')}`);
  }
  return out;
}
