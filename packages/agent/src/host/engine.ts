import { existsSync } from 'node:fs';
import Docker from 'dockerode';
import {
  BALENA_LABEL,
  LABEL,
  containerSpec,
  imagesToPrefetch,
  planApply,
  serviceStatusOf,
  type ApplyHooks,
  type ApplyTarget,
  type ContainerHost,
  type ContainerSpec,
  type CurrentContainer,
  type ServiceCommand,
  type ServiceProgress,
} from '../core/containers.js';
import type { ServiceStatus } from '../core/report.js';

/**
 * The agent's container host on a real engine: Docker, Podman (its Docker-compatible
 * socket) or balenaEngine, through the Docker Engine API. It lists and touches only the
 * containers and volumes labelled with its own device uuid, so several agents can share
 * one engine.
 */

export type EngineKind = 'docker' | 'podman' | 'none';
export const ENGINE_KINDS: readonly EngineKind[] = ['docker', 'podman', 'none'];

export class EngineError extends Error {}

/** Where a Docker-compatible API may listen, in the order tried (after DOCKER_HOST). */
export function socketCandidates(kind: Exclude<EngineKind, 'none'>, env: NodeJS.ProcessEnv): string[] {
  const rootless = env.XDG_RUNTIME_DIR ? [`${env.XDG_RUNTIME_DIR}/podman/podman.sock`] : [];
  const docker = ['/var/run/docker.sock', '/run/docker.sock', '/var/run/balena-engine.sock'];
  const podman = ['/run/podman/podman.sock', ...rootless];
  return kind === 'docker' ? [...docker, ...podman] : [...podman, ...docker];
}

/** dockerode options for a `DOCKER_HOST` value (unix:// or tcp://). */
export function dockerOptions(dockerHost: string): Docker.DockerOptions {
  if (dockerHost.startsWith('unix://')) return { socketPath: dockerHost.slice('unix://'.length) };
  if (dockerHost.startsWith('/')) return { socketPath: dockerHost };
  const m = /^(tcp|http|https):\/\/([^:/]+|\[[^\]]+\]):?([0-9]+)?\/?$/.exec(dockerHost);
  if (!m) throw new EngineError(`DOCKER_HOST "${dockerHost}" is neither unix:///path nor tcp://host:port`);
  return { host: m[2]!, port: Number(m[3] ?? 2375), protocol: m[1] === 'https' ? 'https' : 'http' };
}

/** Finds the engine: DOCKER_HOST when set, else the usual sockets; the first that answers /_ping. */
export async function connectEngine(kind: Exclude<EngineKind, 'none'>, env: NodeJS.ProcessEnv = process.env): Promise<{ docker: Docker; where: string }> {
  const tried: string[] = [];
  const candidates = env.DOCKER_HOST ? [env.DOCKER_HOST] : socketCandidates(kind, env).filter((p) => existsSync(p));
  for (const where of candidates) {
    const docker = new Docker({ ...dockerOptions(where), timeout: 0 });
    try {
      await docker.ping();
      return { docker, where };
    } catch (err) {
      tried.push(`${where} (${err instanceof Error ? err.message : String(err)})`);
    }
  }
  const looked = env.DOCKER_HOST ? `DOCKER_HOST=${env.DOCKER_HOST}` : socketCandidates(kind, env).join(', ');
  throw new EngineError(
    `no ${kind} engine answers: ${tried.length ? `tried ${tried.join('; ')}` : `no socket found at ${looked}`}. ` +
      'Start the engine (e.g. `systemctl start docker` or `podman system service --time=0`), set DOCKER_HOST, or run with --engine none.',
  );
}

/** The registry host of an image reference (what the engine asks for a token). */
export function registryOf(image: string): string {
  const first = image.split('/')[0]!;
  return image.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost') ? first : 'docker.io';
}

/**
 * The `X-Registry-Auth` of a pull: the device's credentials (`d_<uuid>` + device key, as
 * balena supervisors send them) for a Flotilla registry, none for any other registry (a
 * device key never leaves for a third party's realm).
 */
export function registryAuthFor(
  image: string,
  o: Pick<EngineHostOptions, 'uuid' | 'deviceApiKey' | 'trustedRegistries'>,
): { username: string; password: string; serveraddress: string } | undefined {
  const registry = registryOf(image);
  if (!o.trustedRegistries.includes(registry)) return undefined;
  return { username: `d_${o.uuid}`, password: o.deviceApiKey, serveraddress: registry };
}

/** `repo` → `repo:latest`; a reference with a tag or a digest as it is. */
export function withTag(image: string): string {
  if (image.includes('@')) return image;
  const last = image.slice(image.lastIndexOf('/') + 1);
  return last.includes(':') ? image : `${image}:latest`;
}

interface PullEvent {
  status?: string;
  id?: string;
  error?: string;
  errorDetail?: { message?: string };
  progressDetail?: { current?: number; total?: number };
}

export interface EngineHostOptions {
  uuid: string;
  deviceApiKey: string;
  /** Registry hosts (`host[:port]`) the device's credentials may be sent to. */
  trustedRegistries: string[];
  log(message: string): void;
  /** Seconds a container gets to stop before it is killed (default 10, as Docker). */
  stopTimeoutS?: number;
}

const isNotFound = (err: unknown) => (err as { statusCode?: number }).statusCode === 404;
const isNotModified = (err: unknown) => (err as { statusCode?: number }).statusCode === 304;

export class EngineHost implements ContainerHost {
  constructor(
    readonly docker: Docker,
    readonly o: EngineHostOptions,
  ) {}

  private get mine() {
    return { label: [`${LABEL.deviceUuid}=${this.o.uuid}`] };
  }

  async containers(): Promise<CurrentContainer[]> {
    const list = await this.docker.listContainers({ all: true, filters: this.mine });
    return list.map((c) => ({
      id: c.Id,
      name: (c.Names?.[0] ?? '').replace(/^\//, ''),
      service: c.Labels?.[LABEL.serviceName],
      configHash: c.Labels?.[LABEL.configHash],
      imageId: c.ImageID,
      image: c.Image,
      state: c.State,
    }));
  }

  private async networks(): Promise<string[]> {
    const list = await this.docker.listNetworks({ filters: this.mine });
    return list.map((n) => n.Name);
  }

  private async volumes(): Promise<string[]> {
    const res = await this.docker.listVolumes({ filters: this.mine });
    return (res.Volumes ?? []).map((v) => v.Name);
  }

  private async localImageIds(images: string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const ref of new Set(images)) {
      try {
        out.set(ref, (await this.docker.getImage(ref).inspect()).Id);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    return out;
  }

  /** Pulls `image` with the device's registry credentials; `onProgress` gets 0–100. */
  async pull(image: string, onProgress: (pct: number) => void): Promise<void> {
    const auth = registryAuthFor(image, this.o);
    const stream = auth ? await this.docker.createImage(auth, { fromImage: image }) : await this.docker.createImage({ fromImage: image });
    const layers = new Map<string, { current: number; total: number }>();
    let last = -1;
    await new Promise<void>((resolve, reject) => {
      this.docker.modem.followProgress(
        stream,
        (err: Error | null, events: PullEvent[]) => {
          const failed = err?.message ?? events.find((e) => e.error)?.error;
          if (failed) reject(new EngineError(`pull of ${image} failed: ${failed}`));
          else resolve();
        },
        (e: PullEvent) => {
          if (e.id && e.progressDetail?.total) {
            layers.set(e.id, { current: e.progressDetail.current ?? 0, total: e.progressDetail.total });
            let cur = 0;
            let tot = 0;
            for (const l of layers.values()) {
              cur += Math.min(l.current, l.total);
              tot += l.total;
            }
            const pct = Math.min(99, Math.floor((100 * cur) / tot));
            if (pct !== last) onProgress((last = pct));
          }
        },
      );
    });
    onProgress(100);
  }

  async apply(target: ApplyTarget, hooks: ApplyHooks): Promise<'done' | 'locked'> {
    const specs = target.release.services.map((s) => containerSpec(target, s));
    const progress: Record<string, ServiceProgress> = {};
    for (const s of specs) progress[s.service] = { status: 'Downloading', progress: 0 };
    const tell = () => hooks.onProgress({ ...progress });
    const set = (service: string, p: ServiceProgress) => {
      progress[service] = p;
      tell();
    };
    let local = await this.localImageIds(specs.map((s) => s.image));
    for (const s of specs) if (local.has(s.image) || s.strategy === 'kill-then-download') progress[s.service] = { status: 'Downloaded', progress: null };
    tell();
    // Download-then-kill: every new image is pulled while the old containers keep running.
    for (const { service, image } of imagesToPrefetch(specs, (i) => local.has(i))) {
      if (hooks.cancelled?.()) throw new EngineError('the agent is stopping');
      await this.pull(image, (pct) => set(service, { status: 'Downloading', progress: pct }));
      set(service, { status: 'Downloaded', progress: null });
    }
    local = await this.localImageIds(specs.map((s) => s.image));
    const plan = planApply(await this.containers(), specs, (i) => local.get(i), await this.volumes(), await this.networks());
    if (plan.disruptive && hooks.isLocked()) {
      this.o.log(`update deferred: the update lock is held (${plan.steps.filter((s) => s.kind === 'kill').length} service(s) to stop)`);
      return 'locked';
    }
    for (const service of plan.keep) progress[service] = { status: 'Running', progress: null };
    tell();
    for (const step of plan.steps) {
      if (hooks.cancelled?.()) throw new EngineError('the agent is stopping');
      switch (step.kind) {
        case 'kill':
          await this.removeContainer(step.container.id);
          break;
        case 'pull':
          set(step.service, { status: 'Downloading', progress: 0 });
          await this.pull(step.image, (pct) => set(step.service, { status: 'Downloading', progress: pct }));
          break;
        case 'rename':
          await this.docker
            .getContainer(step.container.id)
            .rename({ name: step.name })
            .catch((err: unknown) => this.o.log(`could not rename ${step.container.name}: ${String(err)}`));
          break;
        case 'start':
          set(step.spec.service, { status: 'Installing', progress: null });
          await this.startContainer(step.spec);
          set(step.spec.service, { status: 'Running', progress: null });
          break;
        case 'remove-image':
          await this.removeImageIfUnused(step.imageId, step.image);
          break;
        case 'remove-volume':
          await this.docker
            .getVolume(step.name)
            .remove()
            .catch((err: unknown) => this.o.log(`could not remove volume ${step.name}: ${String(err)}`));
          break;
        case 'remove-network':
          await this.removeNetwork(step.name);
          break;
      }
    }
    return 'done';
  }

  private async ensureVolumes(spec: ContainerSpec): Promise<void> {
    for (const v of spec.volumes) {
      try {
        await this.docker.getVolume(v.name).inspect();
      } catch (err) {
        if (!isNotFound(err)) throw err;
        await this.docker.createVolume({
          Name: v.name,
          Labels: { [LABEL.appId]: spec.labels[LABEL.appId]!, [LABEL.volumeName]: v.volume, ...composedLabels(spec), [LABEL.deviceUuid]: this.o.uuid },
        });
      }
    }
  }

  /** The device's per-fleet bridge network, created on first use (engines give it DNS for the aliases); it carries the composed labels of the service that created it, as volumes do. */
  private async ensureNetwork(spec: ContainerSpec): Promise<void> {
    if (!spec.network) return;
    try {
      await this.docker.getNetwork(spec.network).inspect();
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await this.docker.createNetwork({
        Name: spec.network,
        Driver: 'bridge',
        CheckDuplicate: true,
        Labels: { ...composedLabels(spec), [LABEL.deviceUuid]: this.o.uuid, [LABEL.appId]: spec.labels[LABEL.appId]!, [LABEL.network]: 'default' },
      });
    }
  }

  private async removeNetwork(name: string): Promise<void> {
    await this.docker
      .getNetwork(name)
      .remove()
      .catch((err: unknown) => {
        if (!isNotFound(err)) this.o.log(`could not remove network ${name}: ${String(err)}`);
      });
  }

  private async startContainer(spec: ContainerSpec): Promise<void> {
    await this.ensureVolumes(spec);
    await this.ensureNetwork(spec);
    const exposed: Record<string, object> = {};
    const bindings: Record<string, { HostIp?: string; HostPort?: string }[]> = {};
    for (const p of spec.ports) {
      exposed[p.container] = {};
      const list = bindings[p.container] ?? (bindings[p.container] = []);
      list.push({ ...(p.hostIp ? { HostIp: p.hostIp } : {}), ...(p.hostPort ? { HostPort: p.hostPort } : {}) });
    }
    // A leftover of an interrupted apply may hold the name.
    await this.removeContainer(spec.name).catch(() => undefined);
    const container = await this.docker.createContainer({
      name: spec.name,
      Image: spec.image,
      Env: spec.env,
      Labels: spec.labels,
      ...(spec.cmd ? { Cmd: spec.cmd } : {}),
      ...(spec.entrypoint ? { Entrypoint: spec.entrypoint } : {}),
      ...(spec.workingDir ? { WorkingDir: spec.workingDir } : {}),
      ...(spec.user ? { User: spec.user } : {}),
      ...(spec.hostname ? { Hostname: spec.hostname } : {}),
      ExposedPorts: exposed,
      HostConfig: {
        RestartPolicy: {
          Name: spec.restart.name === 'no' ? '' : spec.restart.name,
          ...(spec.restart.name === 'on-failure' ? { MaximumRetryCount: spec.restart.maximumRetryCount } : {}),
        },
        Binds: spec.volumes.map((v) => `${v.name}:${v.target}${v.readOnly ? ':ro' : ''}`),
        PortBindings: bindings,
        ...(spec.networkMode ? { NetworkMode: spec.networkMode } : spec.network ? { NetworkMode: spec.network } : {}),
      },
      // The service's name resolves to it for the fleet's other services (as on balena).
      ...(spec.network ? { NetworkingConfig: { EndpointsConfig: { [spec.network]: { Aliases: [spec.service] } } } } : {}),
    });
    await container.start();
  }

  private async removeContainer(idOrName: string): Promise<void> {
    const c = this.docker.getContainer(idOrName);
    try {
      await c.stop({ t: this.o.stopTimeoutS ?? 10 });
    } catch (err) {
      if (isNotFound(err)) return;
      if (!isNotModified(err)) this.o.log(`stopping ${idOrName}: ${String(err)}`);
    }
    try {
      await c.remove({ force: true, v: false });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  /**
   * Removes an image the agent pulled once no container on the engine (any agent's, anyone's)
   * uses it. When someone else also named it (another tag), only the agent's own tag goes,
   * or nothing when the agent pulled it by digest: engines differ on what removing a digest
   * reference does (Podman deletes the image with every name).
   */
  private async removeImageIfUnused(imageId: string, image: string): Promise<void> {
    const bare = imageId.replace(/^sha256:/, '');
    const all = await this.docker.listContainers({ all: true });
    if (all.some((c) => c.ImageID.replace(/^sha256:/, '') === bare)) return;
    try {
      const info = await this.docker.getImage(bare).inspect();
      const own = withTag(image);
      const others = (info.RepoTags ?? []).filter((t) => t !== own && !t.startsWith('<none>'));
      if (others.length === 0) await this.docker.getImage(bare).remove();
      else if (!image.includes('@')) await this.docker.getImage(own).remove();
      else return;
      this.o.log(`removed image ${image}`);
    } catch (err) {
      if (!isNotFound(err)) this.o.log(`could not remove image ${image}: ${String(err)}`);
    }
  }

  async status(): Promise<Record<string, ServiceStatus>> {
    const out: Record<string, ServiceStatus> = {};
    for (const c of await this.containers()) if (c.service !== undefined) out[c.service] = serviceStatusOf(c.state);
    return out;
  }

  async serviceCommand(command: ServiceCommand, service: string): Promise<boolean> {
    const c = (await this.containers()).find((x) => x.service === service);
    if (!c) return false;
    const container = this.docker.getContainer(c.id);
    const t = this.o.stopTimeoutS ?? 10;
    const tolerate = (err: unknown) => {
      if (!isNotModified(err)) throw err;
    };
    if (command === 'stop') await container.stop({ t }).catch(tolerate);
    else if (command === 'start') await container.start().catch(tolerate);
    else await container.restart({ t });
    return true;
  }

  async restartAll(): Promise<void> {
    for (const c of await this.containers()) await this.docker.getContainer(c.id).restart({ t: this.o.stopTimeoutS ?? 10 });
  }

  async purge(): Promise<void> {
    for (const c of await this.containers()) await this.removeContainer(c.id);
    for (const v of await this.volumes()) await this.docker.getVolume(v).remove();
    for (const n of await this.networks()) await this.removeNetwork(n);
  }

  async clear(): Promise<void> {
    const current = await this.containers();
    for (const c of current) await this.removeContainer(c.id);
    const images = new Map(current.map((c) => [`${c.imageId} ${c.image}`, c]));
    for (const c of images.values()) await this.removeImageIfUnused(c.imageId, c.image);
    for (const n of await this.networks()) await this.removeNetwork(n);
    if (current.length) this.o.log(`the target has no release: removed ${current.length} container(s)`);
  }
}

const IDENTITY_LABELS = new Set<string>([...Object.values(LABEL), ...Object.values(BALENA_LABEL)]);

/** A volume carries the composition's own labels of the service that created it (not the identity labels). */
function composedLabels(spec: ContainerSpec): Record<string, string> {
  return Object.fromEntries(Object.entries(spec.labels).filter(([k]) => !IDENTITY_LABELS.has(k)));
}
