import { createHash } from 'node:crypto';
import { dependsOnOf, parsePort, parseVolumeEntry, restartPolicyOf, stringMapOf, type RestartPolicy } from '@flotilla/model';
import type { ServiceStatus } from './report.js';
import type { TargetRelease, TargetService } from './target-state.js';

/**
 * What `Device` (the shared state machine) needs from whatever runs a release's services:
 * the real engine (`host/engine.ts`, Docker or Podman through the Docker Engine API) or
 * nothing (the simulation, `Device`'s built-in clock-driven update, which keeps a virtual
 * device to a handful of numbers). The planning below is pure: current containers + the
 * target → the steps, as balena-supervisor's application manager plans them.
 */

export interface ApplyTarget {
  uuid: string;
  appId: number;
  appUuid: string;
  appName: string;
  deviceType: string;
  release: TargetRelease;
}

/** One service's install state while a release is being applied. */
export interface ServiceProgress {
  status: ServiceStatus;
  /** 0–100 while downloading, null otherwise. */
  progress: number | null;
}

export interface ApplyHooks {
  /** True while the update lock holds back stopping running services (and not forced). */
  isLocked(): boolean;
  onProgress(services: Record<string, ServiceProgress>): void;
  /** True once the agent is stopping: the apply ends before its next step. */
  cancelled?(): boolean;
}

export type ServiceCommand = 'restart' | 'start' | 'stop';

export interface ContainerHost {
  /** Brings the device to `target`: 'locked' when the update lock deferred stopping a service (images are pulled). */
  apply(target: ApplyTarget, hooks: ApplyHooks): Promise<'done' | 'locked'>;
  /** Each service's real status (service name → status) of the device's containers. */
  status(): Promise<Record<string, ServiceStatus>>;
  /** Acts on one service's container; false when it has no container. */
  serviceCommand(command: ServiceCommand, service: string): Promise<boolean>;
  restartAll(): Promise<void>;
  /** Removes the app's containers and volumes (the data); the next apply recreates them. */
  purge(): Promise<void>;
  /**
   * The target has no release (its fleet's release was deleted, or the device moved to a
   * fleet without one): stops and removes the device's containers, their unused images and
   * its network, keeping the volumes (the data) until a release no longer mounts them or a purge.
   */
  clear(): Promise<void>;
}

// --- labels --------------------------------------------------------------------------

export const LABEL = {
  deviceUuid: 'io.flotilla.device-uuid',
  appId: 'io.flotilla.app-id',
  appUuid: 'io.flotilla.app-uuid',
  release: 'io.flotilla.release',
  serviceName: 'io.flotilla.service-name',
  serviceId: 'io.flotilla.service-id',
  imageId: 'io.flotilla.image-id',
  configHash: 'io.flotilla.config-hash',
  volumeName: 'io.flotilla.volume-name',
  network: 'io.flotilla.network',
} as const;

/** balena-supervisor's names for the same facts (so balena tooling recognises the containers). */
export const BALENA_LABEL = {
  supervised: 'io.balena.supervised',
  appId: 'io.balena.app-id',
  appUuid: 'io.balena.app-uuid',
  serviceName: 'io.balena.service-name',
  serviceId: 'io.balena.service-id',
} as const;

export const UPDATE_STRATEGY_LABELS = ['io.flotilla.update.strategy', 'io.balena.update.strategy'] as const;
export type UpdateStrategy = 'download-then-kill' | 'kill-then-download';

// --- the desired container of a service ------------------------------------------------

export interface VolumeMount {
  /** Engine volume name (unique per device). */
  name: string;
  /** The composition's volume name. */
  volume: string;
  target: string;
  readOnly: boolean;
}

export interface PortBinding {
  container: string; // "80/tcp"
  hostIp?: string;
  hostPort?: string;
}

export interface ContainerSpec {
  service: string;
  serviceId: number;
  imageId: number;
  image: string;
  name: string;
  cmd?: string[];
  entrypoint?: string[];
  env: string[];
  labels: Record<string, string>;
  volumes: VolumeMount[];
  restart: RestartPolicy;
  /** `host` or `none` from the composition; unset = `network`, or the engine's default bridge for `bridge`. */
  networkMode?: string;
  /** The device's per-fleet network the service joins with its name as alias (unset with a network_mode). */
  network?: string;
  ports: PortBinding[];
  workingDir?: string;
  user?: string;
  hostname?: string;
  dependsOn: string[];
  strategy: UpdateStrategy;
  /** Hash of everything above that decides whether a running container can stay (not the image, not the release). */
  configHash: string;
}

export class CompositionError extends Error {}

/** Docker-compose string commands are split like a shell would (quotes, backslashes), not run through `sh -c`. */
export function shellSplit(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: '"' | "'" | null = null;
  let started = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < text.length) cur += text[++i];
      else cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      started = true;
    } else if (c === '\\' && i + 1 < text.length) {
      cur += text[++i];
      started = true;
    } else if (/\s/.test(c)) {
      if (started) out.push(cur);
      cur = '';
      started = false;
    } else {
      cur += c;
      started = true;
    }
  }
  if (quote) throw new CompositionError(`unterminated quote in "${text}"`);
  if (started) out.push(cur);
  return out;
}

function commandOf(value: unknown, key: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return shellSplit(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  throw new CompositionError(`${key} must be a string or a list of strings`);
}

/** Per-device names: two agents on one engine never share a container or a volume. */
export const devicePrefix = (uuid: string) => uuid.slice(0, 12);
export const volumeName = (appId: number, volume: string, uuid: string) => `${appId}_${volume}_${devicePrefix(uuid)}`;
/** The device's network of a fleet's services (balena's `<appId>_default`, per device like the volumes). */
export const networkName = (appId: number, uuid: string) => `${appId}_default_${devicePrefix(uuid)}`;
export const containerName = (service: string, imageId: number, releaseId: number, uuid: string) => `${service}_${imageId}_${releaseId}_${devicePrefix(uuid)}`;

// The composition was checked by the server (the model's `checkComposition`); these read it
// with the model's own normalisation and refuse what the agent cannot apply all the same.

function volumesOf(value: unknown, t: ApplyTarget): VolumeMount[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new CompositionError('volumes must be a list');
  return value.map((entry) => {
    const v = parseVolumeEntry(entry);
    if ('problem' in v) throw new CompositionError(v.problem);
    return { name: volumeName(t.appId, v.source, t.uuid), volume: v.source, target: v.target, readOnly: v.readOnly };
  });
}

function portsOf(value: unknown): PortBinding[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new CompositionError('ports must be a list');
  return value.map((p) => {
    const port = parsePort(p);
    if (!port) throw new CompositionError(`unsupported port "${String(p)}"`);
    return port;
  });
}

function restartOf(value: unknown): RestartPolicy {
  const policy = restartPolicyOf(value);
  if (!policy) throw new CompositionError(`unsupported restart policy "${String(value)}"`);
  return policy;
}

function networkModeOf(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === 'bridge' || value === 'host' || value === 'none') return value;
  throw new CompositionError(`unsupported network_mode "${String(value)}"`);
}

export function strategyOf(labels: Record<string, string>): UpdateStrategy {
  for (const key of UPDATE_STRATEGY_LABELS) if (labels[key] === 'kill-then-download') return 'kill-then-download';
  return 'download-then-kill';
}

/**
 * The container a target service asks for: the composition's command, entrypoint, volumes,
 * ports, restart policy, network mode; the target's environment (already merged by the
 * server: composition < fleet < service < device < device-service, dialect §4.2) over the
 * balena defaults; the composition's labels plus the identity labels.
 */
export function containerSpec(t: ApplyTarget, s: TargetService): ContainerSpec {
  const comp = s.composition ?? {};
  const composedLabels = s.labels ?? stringMapOf(comp.labels);
  const env: Record<string, string> = {
    BALENA: '1',
    BALENA_DEVICE_UUID: t.uuid,
    BALENA_DEVICE_TYPE: t.deviceType,
    BALENA_APP_ID: String(t.appId),
    BALENA_APP_UUID: t.appUuid,
    BALENA_APP_NAME: t.appName,
    BALENA_SERVICE_NAME: s.name,
    ...(s.environment ?? stringMapOf(comp.environment)),
  };
  const labels: Record<string, string> = {
    ...composedLabels,
    [LABEL.deviceUuid]: t.uuid,
    [LABEL.appId]: String(t.appId),
    [LABEL.appUuid]: t.appUuid,
    [LABEL.serviceName]: s.name,
    [LABEL.serviceId]: String(s.id),
    [BALENA_LABEL.supervised]: 'true',
    [BALENA_LABEL.appId]: String(t.appId),
    [BALENA_LABEL.appUuid]: t.appUuid,
    [BALENA_LABEL.serviceName]: s.name,
    [BALENA_LABEL.serviceId]: String(s.id),
  };
  const spec: Omit<ContainerSpec, 'configHash' | 'name' | 'service' | 'serviceId' | 'imageId' | 'image' | 'strategy'> = {
    env: Object.entries(env)
      .map(([k, v]) => `${k}=${v}`)
      .sort(),
    labels,
    volumes: volumesOf(comp.volumes, t),
    restart: restartOf(comp.restart),
    ports: portsOf(comp.ports),
    dependsOn: dependsOnOf(comp.depends_on),
  };
  const cmd = commandOf(comp.command, 'command');
  const entrypoint = commandOf(comp.entrypoint, 'entrypoint');
  if (cmd) spec.cmd = cmd;
  if (entrypoint) spec.entrypoint = entrypoint;
  const networkMode = networkModeOf(comp.network_mode);
  if (networkMode) spec.networkMode = networkMode;
  else spec.network = networkName(t.appId, t.uuid);
  if (typeof comp.working_dir === 'string') spec.workingDir = comp.working_dir;
  if (typeof comp.user === 'string') spec.user = comp.user;
  if (typeof comp.hostname === 'string') spec.hostname = comp.hostname;
  const configHash = createHash('sha256').update(JSON.stringify(spec)).digest('hex').slice(0, 32);
  const withRelease = { ...labels, [LABEL.release]: t.release.commit, [LABEL.imageId]: String(s.imageId), [LABEL.configHash]: configHash };
  return {
    ...spec,
    labels: withRelease,
    service: s.name,
    serviceId: s.id,
    imageId: s.imageId,
    image: s.image,
    name: containerName(s.name, s.imageId, t.release.id, t.uuid),
    strategy: strategyOf(composedLabels),
    configHash,
  };
}

/** Services ordered so each comes after what it `depends_on` (cycles and unknown names are ignored). */
export function startOrder(specs: ContainerSpec[]): ContainerSpec[] {
  const byName = new Map(specs.map((s) => [s.service, s]));
  const out: ContainerSpec[] = [];
  const seen = new Set<string>();
  const visit = (s: ContainerSpec, path: Set<string>) => {
    if (seen.has(s.service) || path.has(s.service)) return;
    path.add(s.service);
    for (const d of s.dependsOn) {
      const dep = byName.get(d);
      if (dep) visit(dep, path);
    }
    seen.add(s.service);
    out.push(s);
  };
  for (const s of [...specs].sort((a, b) => a.service.localeCompare(b.service))) visit(s, new Set());
  return out;
}

// --- planning -------------------------------------------------------------------------

export interface CurrentContainer {
  id: string;
  name: string;
  service: string | undefined;
  configHash: string | undefined;
  imageId: string;
  /** The image reference the container was created from (what the agent pulled). */
  image: string;
  /** created | running | exited | restarting | paused | dead … */
  state: string;
}

export type Step =
  | { kind: 'pull'; service: string; image: string }
  | { kind: 'kill'; container: CurrentContainer }
  | { kind: 'start'; spec: ContainerSpec }
  | { kind: 'rename'; container: CurrentContainer; name: string }
  | { kind: 'remove-image'; imageId: string; image: string }
  | { kind: 'remove-volume'; name: string }
  | { kind: 'remove-network'; name: string };

export interface Plan {
  /** Services whose container stays as it is. */
  keep: string[];
  steps: Step[];
  /** True when a step stops a running container (the update lock matters). */
  disruptive: boolean;
}

const bareId = (id: string) => id.replace(/^sha256:/, '');

/**
 * Images to pull before anything is stopped (download-then-kill): every such service's
 * image that is not local yet. An unchanged service's image in a new release has a new
 * name; pulling it is cheap (its layers are local) and tells whether its content changed.
 */
export function imagesToPrefetch(specs: ContainerSpec[], isLocal: (image: string) => boolean): { service: string; image: string }[] {
  return specs.filter((s) => s.strategy === 'download-then-kill' && !isLocal(s.image)).map((s) => ({ service: s.service, image: s.image }));
}

/**
 * Current containers + desired specs → steps. A service's container stays when its config
 * hash matches and it runs the same image content (local image id); otherwise it is
 * replaced: download-then-kill (already pulled) or kill-then-download (pull after the kill).
 * Containers of services the target no longer has are removed, then the images they used
 * that nothing desired uses, then the device's volumes no desired service mounts and its
 * networks no desired service joins.
 */
export function planApply(
  current: CurrentContainer[],
  desired: ContainerSpec[],
  localImageId: (image: string) => string | undefined,
  currentVolumes: string[],
  currentNetworks: string[] = [],
): Plan {
  const steps: Step[] = [];
  const keep: string[] = [];
  let disruptive = false;
  const byService = new Map<string, CurrentContainer[]>();
  for (const c of current) {
    const list = byService.get(c.service ?? '') ?? [];
    list.push(c);
    byService.set(c.service ?? '', list);
  }
  const desiredNames = new Set(desired.map((s) => s.service));
  const freedImages = new Map<string, string>();
  const kill = (c: CurrentContainer) => {
    steps.push({ kind: 'kill', container: c });
    if (c.state === 'running' || c.state === 'restarting') disruptive = true;
    freedImages.set(`${bareId(c.imageId)} ${c.image}`, c.image);
  };
  for (const c of current) if (c.service === undefined || !desiredNames.has(c.service)) kill(c);
  for (const spec of startOrder(desired)) {
    const mine = byService.get(spec.service) ?? [];
    const local = localImageId(spec.image);
    const same = mine.find((c) => c.configHash === spec.configHash && local !== undefined && bareId(c.imageId) === bareId(local));
    for (const c of mine) if (c !== same) kill(c);
    if (same) {
      keep.push(spec.service);
      if (same.name !== spec.name) steps.push({ kind: 'rename', container: same, name: spec.name });
      continue;
    }
    if (local === undefined) steps.push({ kind: 'pull', service: spec.service, image: spec.image });
    steps.push({ kind: 'start', spec });
  }
  const used = new Set(desired.map((s) => localImageId(s.image)).filter((x): x is string => x !== undefined).map(bareId));
  const wanted = new Set(desired.map((s) => s.image));
  for (const [key, image] of freedImages) {
    const imageId = key.split(' ')[0]!;
    if (!used.has(imageId) && !wanted.has(image)) steps.push({ kind: 'remove-image', imageId, image });
  }
  const mounted = new Set(desired.flatMap((s) => s.volumes.map((v) => v.name)));
  for (const v of currentVolumes) if (!mounted.has(v)) steps.push({ kind: 'remove-volume', name: v });
  const joined = new Set(desired.map((s) => s.network).filter((n): n is string => n !== undefined));
  for (const n of currentNetworks) if (!joined.has(n)) steps.push({ kind: 'remove-network', name: n });
  return { keep, steps, disruptive };
}

/** The status a service reports for its container's engine state (balena's names). */
export function serviceStatusOf(state: string): ServiceStatus {
  switch (state) {
    case 'running':
      return 'Running';
    case 'restarting':
      return 'Restarting';
    case 'exited':
    case 'dead':
      return 'Exited';
    case 'created':
    case 'configured':
      return 'Installed';
    case 'paused':
      return 'Paused';
    case 'stopping':
    case 'removing':
      return 'Stopping';
    default:
      return 'Stopped';
  }
}
