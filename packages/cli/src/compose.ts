import { parse as parseYaml } from 'yaml';
import {
  MAX_COMPOSITION_BYTES,
  checkComposition,
  dependsOnOf,
  stringMapOf,
  SUPPORTED_SERVICE_KEYS,
  type CompositionService,
} from '@flotilla/model';

/**
 * A compose file as `flotilla deploy` reads it (docs/cli.md). Which keys and values are
 * supported is the model's one definition (`checkComposition`, shared with the server and
 * the agent): anything the agent cannot apply is refused with the service and key named;
 * keys it ignores harmlessly are reported as warnings and left out of the release.
 */

/** Compose files larger than this are refused before parsing (1 MiB). */
export const MAX_COMPOSE_BYTES = MAX_COMPOSITION_BYTES;


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
  /** Keys accepted and not applied by the agent (`service "x": "healthcheck"`), left out of `composition`. */
  ignored: string[];
}

/** A compose file `flotilla deploy` refuses; the message names the service and key. */
export class ComposeError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ComposeError';
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function buildOf(value: unknown): BuildSpec {
  if (typeof value === 'string') return { context: value, dockerfile: 'Dockerfile', args: {}, labels: {} };
  const b = value as Record<string, unknown>;
  return {
    context: String(b.context ?? '.'),
    dockerfile: String(b.dockerfile ?? 'Dockerfile'),
    args: stringMapOf(b.args),
    labels: stringMapOf(b.labels),
    ...(typeof b.target === 'string' ? { target: b.target } : {}),
  };
}

/** A checked service → what the CLI builds or pulls, and its normalised composition (supported keys only). */
function serviceOf(name: string, raw: CompositionService): ServiceSpec {
  const composition: Record<string, unknown> = {};
  const build = raw.build !== undefined ? buildOf(raw.build) : undefined;
  for (const key of SUPPORTED_SERVICE_KEYS) {
    const v = raw[key];
    if (v === undefined) continue;
    switch (key) {
      case 'build':
        composition.build = { context: build!.context, dockerfile: build!.dockerfile };
        break;
      case 'image': // the release's image is the pushed one; an image-only service's reference is not kept
        break;
      case 'environment':
      case 'labels':
        composition[key] = stringMapOf(v);
        break;
      case 'depends_on':
        composition.depends_on = dependsOnOf(v);
        break;
      case 'ports':
        composition.ports = (v as unknown[]).map((p) => (typeof p === 'number' ? String(p) : p));
        break;
      default:
        composition[key] = v;
    }
  }
  return { name, ...(build ? { build } : {}), ...(build === undefined && typeof raw.image === 'string' ? { image: raw.image } : {}), composition };
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
  const { problems, ignored } = checkComposition(doc, 'source');
  if (problems.length) throw new ComposeError(problems);
  const d = doc as { services: Record<string, CompositionService>; volumes?: Record<string, unknown> | null };
  const services = Object.entries(d.services).map(([name, raw]) => serviceOf(name, raw));
  const volumes = isRecord(d.volumes) ? Object.fromEntries(Object.keys(d.volumes).map((v) => [v, {}])) : {};
  return {
    services,
    composition: {
      version: '2.1',
      services: Object.fromEntries(services.map((s) => [s.name, s.composition])),
      ...(Object.keys(volumes).length ? { volumes } : {}),
    },
    ignored,
  };
}

/** A project of one service `main` built from the directory's Dockerfile (as balena does). */
export function singleDockerfileProject(): Project {
  return parseCompose('services:\n  main:\n    build: .\n');
}
