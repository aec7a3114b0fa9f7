/**
 * Reading the v3 target state (dialect §4.2): `{ <uuid>: { name, config, apps: { <appUuid>:
 * { id, name, is_host?, releases: { <commit>: { id, services: { <name>: {…} } } } } } } }`.
 * The agent only needs the user fleet's app (not the supervisor or host OS apps), its one
 * target release and that release's services, plus the config vars.
 */

export interface TargetService {
  name: string;
  id: number;
  imageId: number;
  image: string;
  /** With details (engine mode): the merged environment, labels and compose entry of the service. */
  environment?: Record<string, string>;
  labels?: Record<string, string>;
  composition?: Record<string, unknown>;
}

export interface TargetRelease {
  commit: string;
  id: number;
  services: TargetService[];
}

export interface TargetSummary {
  name: string;
  config: Record<string, string>;
  appUuid: string | null;
  appId: number | null;
  appName?: string;
  /** null when the fleet has no release to run yet. */
  release: TargetRelease | null;
  /** The agent build of the device's supervisor release (issue 17), when it names one with a build. */
  agentBuild?: AgentBuild | null;
}

/** An agent build the server offers (`agent_build` of the supervisor block's release): its version, where to download it (a path on the API), sha256 and size. */
export interface AgentBuild {
  version: string;
  url: string;
  sha256: string;
  size: number;
}

/** The `agent_build` of the supervisor release (the `block` app) of the target's apps, or null. */
export function agentBuildOf(apps: Record<string, unknown>): AgentBuild | null {
  for (const app of Object.values(apps)) {
    if (!isObject(app) || app.class !== 'block' || !isObject(app.releases)) continue;
    for (const rel of Object.values(app.releases)) {
      const b = isObject(rel) ? rel.agent_build : undefined;
      if (isObject(b) && typeof b.version === 'string' && typeof b.url === 'string' && typeof b.sha256 === 'string' && /^[0-9a-f]{64}$/.test(b.sha256) && b.url.startsWith('/')) {
        return { version: b.version, url: b.url, sha256: b.sha256, size: Number(b.size ?? 0) };
      }
    }
  }
  return null;
}

export class TargetStateError extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Extracts what the agent acts on; `applicationId` picks the fleet's app among the apps. */
export function summarizeTarget(body: unknown, uuid: string, applicationId: number | null, details = false): TargetSummary {
  if (!isObject(body)) throw new TargetStateError('target state is not an object');
  const device = body[uuid];
  if (!isObject(device)) throw new TargetStateError(`target state has no entry for ${uuid}`);
  const config: Record<string, string> = {};
  if (isObject(device.config)) for (const [k, v] of Object.entries(device.config)) config[k] = String(v);
  const apps = isObject(device.apps) ? device.apps : {};
  const agentBuild = agentBuildOf(apps);
  // The supervisor block is not the fleet's app.
  const candidates = Object.entries(apps).filter(([, app]) => isObject(app) && app.is_host !== true && app.class !== 'block') as [string, Record<string, unknown>][];
  const picked =
    candidates.find(([, app]) => applicationId !== null && app.id === applicationId) ??
    // Without a known fleet id: the fleet app is the one that is neither host OS nor supervisor.
    candidates.find(([, app]) => app.class === 'fleet') ??
    candidates[0];
  if (picked === undefined) return { name: String(device.name ?? ''), config, appUuid: null, appId: null, release: null, agentBuild };
  const [appUuid, app] = picked;
  const releases = isObject(app.releases) ? Object.entries(app.releases) : [];
  let release: TargetRelease | null = null;
  const first = releases[0];
  if (first !== undefined && isObject(first[1])) {
    const [commit, rel] = first;
    const services: TargetService[] = [];
    if (isObject(rel.services)) {
      for (const [name, svc] of Object.entries(rel.services)) {
        if (!isObject(svc)) continue;
        const service: TargetService = { name, id: Number(svc.id), imageId: Number(svc.image_id), image: String(svc.image ?? '') };
        if (details) {
          service.environment = stringRecord(svc.environment);
          service.labels = stringRecord(svc.labels);
          if (isObject(svc.composition)) service.composition = svc.composition;
        }
        services.push(service);
      }
    }
    services.sort((a, b) => a.name.localeCompare(b.name));
    release = { commit, id: Number(rel.id), services };
  }
  return { name: String(device.name ?? ''), config, appUuid, appId: typeof app.id === 'number' ? app.id : null, appName: String(app.name ?? ''), release, agentBuild };
}

function stringRecord(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isObject(value)) for (const [k, v] of Object.entries(value)) out[k] = String(v);
  return out;
}

/** What identifies a service's desired container in a target (details included when parsed). */
function serviceKey(s: TargetService): string {
  const base = `${s.name}:${s.imageId}:${s.image}`;
  return s.environment === undefined ? base : `${base}:${JSON.stringify([s.environment, s.labels, s.composition])}`;
}

export interface TargetDiff {
  releaseChanged: boolean;
  servicesChanged: boolean;
  configChanged: boolean;
  nameChanged: boolean;
}

/** What changed between two target states; `prev` null means the first target ever seen. */
export function diffTarget(prev: TargetSummary | null, next: TargetSummary): TargetDiff {
  if (prev === null) {
    return { releaseChanged: next.release !== null, servicesChanged: next.release !== null, configChanged: true, nameChanged: true };
  }
  const releaseChanged = (prev.release?.commit ?? null) !== (next.release?.commit ?? null);
  const svcKey = (r: TargetRelease | null) => (r ? r.services.map(serviceKey).join('|') : '');
  return {
    releaseChanged,
    servicesChanged: releaseChanged || svcKey(prev.release) !== svcKey(next.release),
    configChanged: !sameRecord(prev.config, next.config),
    nameChanged: prev.name !== next.name,
  };
}

function sameRecord(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => b[k] === a[k]);
}

/**
 * The poll interval the fleet asks for (config var, in ms, as balena's
 * `BALENA_SUPERVISOR_POLL_INTERVAL`), or `fallback` when unset or unreadable.
 */
export function pollIntervalFrom(config: Record<string, string>, fallback: number): number {
  const raw = config.BALENA_SUPERVISOR_POLL_INTERVAL ?? config.RESIN_SUPERVISOR_POLL_INTERVAL;
  const n = raw === undefined ? NaN : Number(raw);
  return Number.isFinite(n) && n >= 1_000 ? n : fallback;
}
