import { effectiveConfig, effectiveEnvironment, effectiveValues, model, type EffectiveVariable, type EnvironmentLayers } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { compositionEnvironment, type Vars } from './environment.js';
import {
  selectDeviceState,
  selectReleaseServices,
  selectTargetApplication,
  selectTargetRelease,
  selectVariables,
  type DeviceStateRow,
} from './target-state.repository.js';

export interface TargetDevice {
  id: number;
  uuid: string;
  applicationId: number;
}

/** Reads name/value rows of a variable table when it exists in the model (issue 5 variables). */
async function vars(db: Db, table: string, parent: string, ids: readonly number[]): Promise<Map<number, Vars>> {
  const out = new Map<number, Vars>();
  if (!(table in model) || ids.length === 0) return out;
  for (const r of await selectVariables(db, table, parent, ids)) {
    const m = out.get(r.parent) ?? {};
    m[r.name] = r.value;
    out.set(r.parent, m);
  }
  return out;
}

/** What every device of a fleet on one release shares: the app and the services with the fleet layers of their env. */
export interface FleetPart {
  appId: number;
  appUuid: string;
  app: Record<string, unknown>;
  config: Vars;
  release?: {
    id: number;
    commit: string;
    services: {
      id: number;
      name: string;
      /** The service's entry without its environment. */
      entry: Record<string, unknown>;
      /** The fleet's levels of the service's environment (the device adds its own). */
      layers: Pick<EnvironmentLayers, 'image' | 'fleet' | 'fleetService'>;
    }[];
  };
}

/**
 * Reads the fleet part of the target state of the fleet `appId`'s devices on `target` (its
 * config and env variables unless `withVariables` is false).
 */
export async function buildFleetPart(db: Db, appId: number, target: number | null, withVariables = true): Promise<FleetPart | undefined> {
  const a = await selectTargetApplication(db, appId);
  if (!a) return undefined;
  const config = withVariables ? ((await vars(db, 'application_config_variable', 'application', [appId])).get(appId) ?? {}) : {};
  const app: Record<string, unknown> = { id: appId, name: a.app_name, class: a.app_class ?? 'fleet', releases: {} };
  if (a.is_host) app.is_host = true;
  const part: FleetPart = { appId, appUuid: a.uuid, app, config };
  if (target === null) return part;
  const release = await selectTargetRelease(db, target);
  if (!release) return part;
  const services = await selectReleaseServices(db, release.id);
  const appEnv = withVariables ? (await vars(db, 'application_environment_variable', 'application', [appId])).get(appId) : undefined;
  const serviceEnv = withVariables
    ? await vars(
        db,
        'service_environment_variable',
        'service',
        services.map((s) => s.service_id),
      )
    : new Map<number, Vars>();
  const composed = (release.composition?.services ?? {}) as Record<string, { environment?: unknown; labels?: unknown }>;
  part.release = {
    id: release.id,
    commit: release.commit,
    services: services.map((s) => {
      const composedService = composed[s.service_name] ?? {};
      return {
        id: s.service_id,
        name: s.service_name,
        layers: {
          image: compositionEnvironment(composedService.environment),
          fleet: appEnv,
          fleetService: serviceEnv.get(s.service_id),
        },
        entry: {
          id: s.service_id,
          image_id: s.image_id,
          image: s.content_hash && !s.location.includes('@') ? `${s.location}@${s.content_hash}` : s.location,
          running: true,
          labels: compositionEnvironment(composedService.labels),
          ...(s.contract ? { contract: s.contract } : {}),
          ...(composedService && Object.keys(composedService).length ? { composition: composedService } : {}),
        },
      };
    }),
  };
  return part;
}

const pairs = (list: [string, string][] | null): Vars => {
  const out: Vars = {};
  for (const [k, v] of list ?? []) out[k] = v;
  return out;
};

/** Where the parts shared by many devices come from (caches in the routes; default: read them now). */
export interface SharedParts {
  /** The fleet part of the fleet `appId` on release `target`. */
  fleetPart(appId: number, target: number | null): Promise<FleetPart | undefined>;
  /** The supervisor (`host` false) or hostApp (`host` true) release `releaseId` of app `appId`. */
  systemApp(appId: number, releaseId: number, host: boolean): Promise<SystemApp | undefined>;
  /**
   * Billing on: a frozen device (`device.is_frozen`) is held on the release it runs, it gets
   * no new release (docs/decisions.md, issue 18).
   */
  holdFrozen?: boolean;
}

/** A supervisor or hostApp release as it appears in `apps`: no variables of any kind ("empty config"). */
export interface SystemApp {
  appUuid: string;
  app: Record<string, unknown>;
}

/** The label that tells the device a hostApp image goes to the root store (dialect §4.2). */
export const HOST_IMAGE_STORE_LABEL = 'io.balena.image.store';

/**
 * The agent build of a supervisor release (features/agent-releases) as the release entry's
 * `agent_build` carries it: `{ version, url, sha256, size }`, undefined when it has none.
 */
export type AgentBuildLookup = (releaseId: number) => Promise<object | undefined>;

/**
 * Reads release `releaseId` of app `appId` as a supervisor or hostApp entry of `apps`. A
 * supervisor release with an agent build carries it (`agent_build`): Flotilla's agent installs
 * it when its version is newer than its own.
 */
export async function buildSystemApp(db: Db, appId: number, releaseId: number, host: boolean, agentBuild?: AgentBuildLookup): Promise<SystemApp | undefined> {
  const part = await buildFleetPart(db, appId, releaseId, false);
  if (!part?.release) return undefined;
  const services: Record<string, unknown> = {};
  for (const s of part.release.services) {
    const { id, image_id, image, running, labels, ...rest } = s.entry;
    services[s.name] = {
      id,
      image_id,
      image,
      running,
      environment: effectiveValues(effectiveEnvironment(s.layers)),
      labels: host ? { ...(labels as Vars), [HOST_IMAGE_STORE_LABEL]: 'root' } : labels,
      ...rest,
    };
  }
  const build = host || !agentBuild ? undefined : await agentBuild(part.release.id);
  const release: Record<string, unknown> = { id: part.release.id, services };
  if (build) release.agent_build = build;
  return { appUuid: part.appUuid, app: { ...part.app, releases: { [part.release.commit]: release } } };
}

/** What a device's target state is made of, before it is written in the v3 or v2 shape. */
export interface TargetParts {
  device: DeviceStateRow;
  fleet: FleetPart;
  /**
   * The fleet app's services on the target release: v3 entries whose `environment` is the
   * values of `effective` (every level, as effectiveEnvironment stacks them).
   */
  services: { name: string; id: number; entry: Record<string, unknown>; effective: EffectiveVariable[] }[];
  /** The device's own configuration variables (the fleet's are `fleet.config`). */
  deviceConfig: Vars;
  /** The `config` sent: the values of effectiveConfig(fleet, device), no schema defaults. */
  config: Vars;
  systemApps: SystemApp[];
}

/** Reads the parts of device `deviceId`'s target state; `undefined` when the device is gone. */
export async function loadTargetParts(db: Db, deviceId: number, shared: SharedParts = directParts(db)): Promise<TargetParts | undefined> {
  const d = await selectDeviceState(db, deviceId, shared.holdFrozen === true);
  if (!d) return undefined;
  const fleet = await shared.fleetPart(d.app_id, d.target);
  if (!fleet) return undefined;
  const services: TargetParts['services'] = [];
  if (fleet.release) {
    const deviceEnv = pairs(d.env);
    const deviceServiceEnv = new Map<number, Vars>();
    for (const [service, name, value] of d.service_env ?? []) deviceServiceEnv.set(service, { ...deviceServiceEnv.get(service), [name]: value });
    for (const s of fleet.release.services) {
      const { id, image_id, image, running, ...rest } = s.entry;
      const effective = effectiveEnvironment({ ...s.layers, device: deviceEnv, deviceService: deviceServiceEnv.get(s.id) });
      services.push({
        name: s.name,
        id: s.id,
        effective,
        entry: { id, image_id, image, running, environment: effectiveValues(effective), ...rest },
      });
    }
  }
  const systemApps: SystemApp[] = [];
  for (const [release, app, host] of [
    [d.supervisor_release, d.supervisor_app, false],
    [d.host_release, d.host_app, true],
  ] as const) {
    if (release === null || app === null || app === d.app_id) continue;
    const sys = await shared.systemApp(app, release, host);
    if (sys) systemApps.push(sys);
  }
  const deviceConfig = pairs(d.config);
  const config = effectiveValues(effectiveConfig(fleet.config, deviceConfig), { sentOnly: true });
  return { device: d, fleet, services, deviceConfig, config, systemApps };
}

export function directParts(db: Db): SharedParts {
  return {
    fleetPart: (appId, target) => buildFleetPart(db, appId, target),
    systemApp: (appId, releaseId, host) => buildSystemApp(db, appId, releaseId, host),
  };
}

/**
 * The v3 target state (dialect §4.2): `{ <uuid>: { name, config, apps } }` where `config` is
 * the fleet config vars then the device's, and `apps` holds the fleet's app with its target
 * release (the device's pin, else the fleet's target) and that release's services with image
 * locations and merged environments, plus the device's supervisor and hostApp releases.
 */
export function v3Body(p: TargetParts): unknown {
  const app: Record<string, unknown> = { ...p.fleet.app };
  if (p.fleet.release) {
    app.releases = { [p.fleet.release.commit]: { id: p.fleet.release.id, services: Object.fromEntries(p.services.map((s) => [s.name, s.entry])) } };
  }
  const apps: Record<string, unknown> = { [p.fleet.appUuid]: app };
  for (const sys of p.systemApps) apps[sys.appUuid] ??= sys.app;
  return { [p.device.uuid]: { name: p.device.device_name, config: p.config, apps } };
}

/**
 * The legacy v2 target state (dialect §4.2 "v2 body"): `{ local: { name, config, apps: {
 * <appId>: { name, commit, releaseId, services: { <serviceId>: { imageId, serviceName, image,
 * environment, labels } } } } }, dependent: { apps: {}, devices: {} } }`, the fleet's app only.
 */
export function v2Body(p: TargetParts): unknown {
  const app: Record<string, unknown> = { name: p.fleet.app.name };
  const services: Record<string, unknown> = {};
  if (p.fleet.release) {
    app.commit = p.fleet.release.commit;
    app.releaseId = p.fleet.release.id;
    for (const s of p.services) {
      services[String(s.id)] = {
        imageId: s.entry.image_id,
        serviceName: s.name,
        image: s.entry.image,
        running: s.entry.running,
        environment: s.entry.environment,
        labels: s.entry.labels,
      };
    }
  }
  app.services = services;
  return {
    local: { name: p.device.device_name, config: p.config, apps: { [String(p.fleet.appId)]: app } },
    dependent: { apps: {}, devices: {} },
  };
}

/** The v3 target state of one device, read now (see `v3Body`); `undefined` when the device is gone. */
export async function buildTargetState(db: Db, deviceId: number, shared?: SharedParts): Promise<{ device: TargetDevice; body: unknown } | undefined> {
  const parts = await loadTargetParts(db, deviceId, shared);
  if (!parts) return undefined;
  return { device: { id: parts.device.id, uuid: parts.device.uuid, applicationId: parts.device.app_id }, body: v3Body(parts) };
}
