import { parse as parseYaml } from 'yaml';

/**
 * The compose subset `flotilla deploy` accepts (docs/cli.md, docs/decisions.md "Issue 14 —
 * CLI"): the keys flotilla-agent applies on a device. Anything else is refused with the
 * service and key named, rather than deployed and silently ignored.
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
export const SUPPORTED_BUILD_KEYS = ['context', 'dockerfile', 'args', 'labels', 'target'] as const;
export const SUPPORTED_TOP_LEVEL_KEYS = ['version', 'services', 'volumes'] as const;
export const RESTART_POLICIES = ['no', 'always', 'on-failure', 'unless-stopped'] as const;
export const NETWORK_MODES = ['bridge', 'host', 'none'] as const;

/** Compose files larger than this are refused before parsing (1 MiB). */
export const MAX_COMPOSE_BYTES = 1024 * 1024;

/** Service names as balena and the server's `service.service_name` accept them. */
const SERVICE_NAME = /^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,62}$/;
const VOLUME_NAME = /^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/;
const ENV_NAME = /^[^=\s]+$/;
// Single ports only (no ranges): what flotilla-agent maps.
const PORT = /^(\d{1,3}(\.\d{1,3}){3}:)?(\d{1,5}:)?\d{1,5}(\/(tcp|udp|sctp))?$/;

export interface BuildSpec {
  /** Relative to the project directory. */
  context: string;
  dockerfile: string;
  args: Record<string, string>;
  labels: Record<string, string>;
  target?: string;
}

export interface ServiceSpec {
  name: string;
  /** Set for services built from source. */
  build?: BuildSpec;
  /** Set for services that use an existing image (pulled when missing locally). */
  image?: string;
  /** The service as the release's `composition` records it. */
  composition: Record<string, unknown>;
}

export interface Project {
  services: ServiceSpec[];
  /** The release's `composition`: the normalised compose document. */
  composition: Record<string, unknown>;
}

/** A compose file `flotilla deploy` refuses; the message names the service and key. */
export class ComposeError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ComposeError';
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isScalar = (v: unknown): v is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof v);

/** A `KEY=value` list or a map, as compose allows for environment, labels and args. */
function stringMap(value: unknown, where: string, problems: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  if (value === undefined || value === null) return out;
  if (Array.isArray(value)) {
    for (const entry of value) {
      if (typeof entry !== 'string' || entry === '') {
        problems.push(`${where}: each entry must be a "KEY=value" string`);
        continue;
      }
      const eq = entry.indexOf('=');
      const key = eq < 0 ? entry : entry.slice(0, eq);
      if (!ENV_NAME.test(key)) problems.push(`${where}: invalid name "${key}"`);
      // `KEY` alone takes the value from the deploying shell in docker compose; here it is empty.
      out[key] = eq < 0 ? '' : entry.slice(eq + 1);
    }
    return out;
  }
  if (isRecord(value)) {
    for (const [key, v] of Object.entries(value)) {
      if (!ENV_NAME.test(key)) problems.push(`${where}: invalid name "${key}"`);
      if (v === null || v === undefined) out[key] = '';
      else if (isScalar(v)) out[key] = String(v);
      else problems.push(`${where}: the value of "${key}" must be a string, number or boolean`);
    }
    return out;
  }
  problems.push(`${where}: must be a map or a list of "KEY=value" strings`);
  return out;
}

function stringOrList(value: unknown, where: string, problems: string[]): string | string[] | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  problems.push(`${where}: must be a string or a list of strings`);
  return undefined;
}

function parseBuild(value: unknown, where: string, problems: string[]): BuildSpec | undefined {
  if (typeof value === 'string') return { context: value, dockerfile: 'Dockerfile', args: {}, labels: {} };
  if (!isRecord(value)) {
    problems.push(`${where}: must be a context path or a map`);
    return undefined;
  }
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
  return {
    context: String(context),
    dockerfile: String(dockerfile),
    args: stringMap(value.args, `${where}: build.args`, problems),
    labels: stringMap(value.labels, `${where}: build.labels`, problems),
    ...(typeof value.target === 'string' ? { target: value.target } : {}),
  };
}

function checkVolumes(value: unknown, where: string, declared: Set<string>, problems: string[]): void {
  if (!Array.isArray(value)) {
    problems.push(`${where}: volumes must be a list of "name:/path" entries`);
    return;
  }
  for (const entry of value) {
    if (typeof entry !== 'string') {
      problems.push(`${where}: volumes entries must be "name:/path" strings`);
      continue;
    }
    const [source = '', target, mode, ...rest] = entry.split(':');
    if (target === undefined || rest.length > 0 || (mode !== undefined && mode !== 'ro' && mode !== 'rw')) {
      problems.push(`${where}: volume "${entry}" must be "name:/path" or "name:/path:ro"`);
      continue;
    }
    if (source.startsWith('/') || source.startsWith('.') || source.startsWith('~')) {
      problems.push(`${where}: volume "${entry}" is a bind mount; only named volumes are supported`);
    } else if (!VOLUME_NAME.test(source)) {
      problems.push(`${where}: volume "${entry}" has an invalid name`);
    } else if (!declared.has(source)) {
      problems.push(`${where}: volume "${source}" is not declared under the top-level "volumes"`);
    }
    if (!target.startsWith('/')) problems.push(`${where}: volume "${entry}" must mount at an absolute path`);
  }
}

function checkPorts(value: unknown, where: string, problems: string[]): string[] {
  if (!Array.isArray(value)) {
    problems.push(`${where}: ports must be a list`);
    return [];
  }
  const out: string[] = [];
  for (const entry of value) {
    const text = typeof entry === 'number' ? String(entry) : entry;
    if (typeof text !== 'string' || !PORT.test(text)) problems.push(`${where}: port "${String(entry)}" must look like "8080:80" or "80/udp" (no ranges)`);
    else out.push(text);
  }
  return out;
}

function parseService(name: string, raw: unknown, declaredVolumes: Set<string>, serviceNames: Set<string>, problems: string[]): ServiceSpec | undefined {
  const where = `service "${name}"`;
  if (!SERVICE_NAME.test(name)) problems.push(`${where}: invalid service name (letters, digits, "_", "." and "-", at most 63 characters)`);
  if (!isRecord(raw)) {
    problems.push(`${where}: must be a map`);
    return undefined;
  }
  for (const key of Object.keys(raw)) {
    if (!(SUPPORTED_SERVICE_KEYS as readonly string[]).includes(key)) {
      problems.push(`${where}: unsupported key "${key}" (supported: ${SUPPORTED_SERVICE_KEYS.join(', ')})`);
    }
  }
  const composition: Record<string, unknown> = {};
  let build: BuildSpec | undefined;
  let image: string | undefined;
  if (raw.build !== undefined) {
    build = parseBuild(raw.build, where, problems);
    if (build) composition.build = { context: build.context, dockerfile: build.dockerfile };
  }
  if (raw.image !== undefined) {
    if (typeof raw.image !== 'string' || raw.image === '') problems.push(`${where}: image must be an image reference`);
    else if (!build) image = raw.image;
  }
  if (raw.build === undefined && raw.image === undefined) problems.push(`${where}: needs "build" or "image"`);
  for (const key of ['command', 'entrypoint'] as const) {
    if (raw[key] !== undefined) composition[key] = stringOrList(raw[key], `${where}: ${key}`, problems);
  }
  if (raw.environment !== undefined) composition.environment = stringMap(raw.environment, `${where}: environment`, problems);
  if (raw.labels !== undefined) composition.labels = stringMap(raw.labels, `${where}: labels`, problems);
  if (raw.volumes !== undefined) {
    checkVolumes(raw.volumes, where, declaredVolumes, problems);
    composition.volumes = raw.volumes;
  }
  if (raw.restart !== undefined) {
    if (!(RESTART_POLICIES as readonly unknown[]).includes(raw.restart)) problems.push(`${where}: restart must be one of ${RESTART_POLICIES.join(', ')}`);
    composition.restart = raw.restart;
  }
  if (raw.depends_on !== undefined) {
    const deps = Array.isArray(raw.depends_on) ? raw.depends_on : isRecord(raw.depends_on) ? Object.keys(raw.depends_on) : null;
    if (!deps || !deps.every((d) => typeof d === 'string')) problems.push(`${where}: depends_on must be a list of service names`);
    else {
      for (const dep of deps as string[]) {
        if (!serviceNames.has(dep)) problems.push(`${where}: depends_on names "${dep}", which is not a service of this project`);
        if (dep === name) problems.push(`${where}: depends_on names the service itself`);
      }
      composition.depends_on = deps;
    }
  }
  if (raw.network_mode !== undefined) {
    if (!(NETWORK_MODES as readonly unknown[]).includes(raw.network_mode)) problems.push(`${where}: network_mode must be one of ${NETWORK_MODES.join(', ')}`);
    composition.network_mode = raw.network_mode;
  }
  if (raw.ports !== undefined) composition.ports = checkPorts(raw.ports, where, problems);
  for (const key of ['working_dir', 'user', 'hostname'] as const) {
    if (raw[key] === undefined) continue;
    if (typeof raw[key] !== 'string' || raw[key] === '') problems.push(`${where}: ${key} must be a non-empty string`);
    else composition[key] = raw[key];
  }
  return { name, ...(build ? { build } : {}), ...(image !== undefined ? { image } : {}), composition };
}

/** A cycle among `depends_on`, reported once with its path. */
function findCycle(services: ServiceSpec[]): string[] | undefined {
  const deps = new Map(services.map((s) => [s.name, (s.composition.depends_on as string[] | undefined) ?? []]));
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
  for (const s of services) {
    const cycle = visit(s.name, []);
    if (cycle) return cycle;
  }
  return undefined;
}

/** Parses and checks a compose document; throws ComposeError listing every problem. */
export function parseCompose(text: string): Project {
  if (Buffer.byteLength(text) > MAX_COMPOSE_BYTES) throw new ComposeError([`the compose file is larger than ${MAX_COMPOSE_BYTES} bytes`]);
  let doc: unknown;
  try {
    doc = parseYaml(text, { maxAliasCount: 100 });
  } catch (err) {
    throw new ComposeError([`the compose file is not valid YAML: ${(err as Error).message.split('\n')[0]}`]);
  }
  if (!isRecord(doc)) throw new ComposeError(['the compose file must be a map with "services"']);
  const problems: string[] = [];
  for (const key of Object.keys(doc)) {
    if (!(SUPPORTED_TOP_LEVEL_KEYS as readonly string[]).includes(key)) {
      problems.push(`unsupported top-level key "${key}" (supported: ${SUPPORTED_TOP_LEVEL_KEYS.join(', ')})`);
    }
  }
  if (doc.version !== undefined && typeof doc.version !== 'string' && typeof doc.version !== 'number') problems.push('"version" must be a string');
  const volumes: Record<string, Record<string, never>> = {};
  if (doc.volumes !== undefined && doc.volumes !== null) {
    if (!isRecord(doc.volumes)) problems.push('"volumes" must be a map of volume names');
    else {
      for (const [name, spec] of Object.entries(doc.volumes)) {
        if (!VOLUME_NAME.test(name)) problems.push(`volume "${name}": invalid name`);
        if (spec !== null && spec !== undefined && !(isRecord(spec) && Object.keys(spec).length === 0)) {
          problems.push(`volume "${name}": driver options are not supported (declare it as "${name}: {}")`);
        }
        volumes[name] = {};
      }
    }
  }
  if (!isRecord(doc.services) || Object.keys(doc.services).length === 0) {
    problems.push('"services" must name at least one service');
    throw new ComposeError(problems);
  }
  const names = new Set(Object.keys(doc.services));
  const declared = new Set(Object.keys(volumes));
  const services: ServiceSpec[] = [];
  for (const [name, raw] of Object.entries(doc.services)) {
    const service = parseService(name, raw, declared, names, problems);
    if (service) services.push(service);
  }
  const cycle = problems.length ? undefined : findCycle(services);
  if (cycle) problems.push(`depends_on forms a cycle: ${cycle.join(' → ')}`);
  if (problems.length) throw new ComposeError(problems);
  return {
    services,
    composition: {
      version: '2.1',
      services: Object.fromEntries(services.map((s) => [s.name, s.composition])),
      ...(Object.keys(volumes).length ? { volumes } : {}),
    },
  };
}

/** A project of one service `main` built from the directory's Dockerfile (as balena does). */
export function singleDockerfileProject(): Project {
  return parseCompose('services:\n  main:\n    build: .\n');
}
