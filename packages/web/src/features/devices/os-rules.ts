import {
  classifyOsUpdate,
  compareParsedOsVersions,
  isOsUpdateAllowed,
  parseOsVersion,
  recommendedOsVersion,
  supervisorUpdateBlock,
  SUPERVISOR_UPDATE_MESSAGES,
  type OsUpdateClassification,
  type OsUpdateDevice,
  type OsVersionWithLine,
  type SupervisorUpdateDevice,
} from '@flotilla/model';

/**
 * What the device pages show about the host OS and the supervisor (spec 2 §3 OS lines, §4 OS
 * update classification and supervisor update), from the catalogue read through balena-sdk
 * (`os.getAvailableOsVersions`, `os.getSupervisorReleasesForCpuArchitecture`) and the model's
 * rules — the same functions the server enforces with. Pure.
 */

/** A catalogue OS release as `os.getAvailableOsVersions` gives it (the fields the pages read). */
export interface CatalogueOsVersion extends OsVersionWithLine {
  variant?: string | null;
  phase?: string | null;
}

export { osBadge, type OsBadge } from './os-badge';

/** The device's OS variant: the reported `os_variant`, else the one its version string carries. */
export function deviceOsVariant(device: Pick<OsUpdateDevice, 'osVersion' | 'osVariant'>): 'prod' | 'dev' | undefined {
  if (device.osVariant === 'prod' || device.osVariant === 'dev') return device.osVariant;
  return parseOsVersion(device.osVersion)?.variant;
}

export interface OsUpdateTarget {
  version: string;
  classification: OsUpdateClassification;
}

export interface OsUpdateOverview {
  /** The newest version of the device's own line (ESR or default) and variant, if the catalogue has one. */
  recommended?: string;
  /** The device classified against the recommended version (spec 2 §4 states, with the reason). */
  classification: OsUpdateClassification;
  /** The versions an update may go to (updatable or an ESR switch), newest first, as if the device were online. */
  targets: OsUpdateTarget[];
}

/**
 * Spec 2 §4 for one device against the catalogue of its type: the classification against the
 * recommended version, and every version of its variant an update may start to. The targets
 * are judged as if the device were online (the classification says 'offline'), so an offline
 * device still shows what it could take.
 */
export function osUpdateOverview(device: OsUpdateDevice, versions: readonly CatalogueOsVersion[]): OsUpdateOverview {
  const variant = deviceOsVariant(device);
  const ofVariant = variant ? versions.filter((v) => (parseOsVersion(v.raw_version)?.variant ?? v.variant) === variant) : versions;
  const recommended = recommendedOsVersion(device, ofVariant);
  const classification = classifyOsUpdate(device, recommended ?? device.osVersion ?? '', versions);
  const online = { ...device, isOnline: true };
  const targets = [...new Set(ofVariant.map((v) => v.raw_version))]
    .map((version) => ({ version, classification: classifyOsUpdate(online, version, versions) }))
    .filter((t) => isOsUpdateAllowed(t.classification))
    .sort((a, b) => compareParsedOsVersions(parseOsVersion(b.version)!, parseOsVersion(a.version)!));
  return { ...(recommended ? { recommended } : {}), classification, targets };
}

export interface SupervisorRelease {
  id: number;
  raw_version: string;
  /**
   * Whether the release carries a Flotilla agent build (release tag AGENT_BUILD_TAG): a device
   * running Flotilla's agent installs only those; the others are catalogue only (issue 17).
   */
  hasAgentBuild?: boolean;
}

export interface SupervisorOverview {
  /** Why no supervisor update is possible (spec 2 §4's blocking messages), when none is. */
  block?: string;
  /** The releases the device may move to, newest first. */
  newer: SupervisorRelease[];
}

/**
 * Spec 2 §4 "Supervisor update" for one device against the supervisor releases of its CPU
 * architecture: the releases `supervisorUpdateBlock` allows, newest first; with none, the
 * reason the newest release is refused ('already running this version', 'Cannot update ESR
 * supervisor', 'update not supported for type version'), or 'update not supported for type
 * version' when the architecture has no supervisor releases.
 */
export function supervisorOverview(device: SupervisorUpdateDevice, releases: readonly SupervisorRelease[]): SupervisorOverview {
  const valid = releases
    .map((r) => ({ r, p: parseOsVersion(r.raw_version) }))
    .filter((x) => x.p !== undefined)
    .sort((a, b) => compareParsedOsVersions(b.p!, a.p!))
    .map((x) => x.r);
  const newer = valid.filter((r) => supervisorUpdateBlock(device, r.raw_version) === undefined);
  if (newer.length > 0) return { newer };
  const block = valid[0] ? supervisorUpdateBlock(device, valid[0].raw_version) : SUPERVISOR_UPDATE_MESSAGES.notSupported;
  return { newer, ...(block ? { block } : {}) };
}

/** Spec 2 §4: the message when an OS update does not start (its result is not `triggered`). */
export const OS_UPDATE_NOT_STARTED = 'Cannot start the update process';

/**
 * Why the OS update action did not start, from `device.startOsUpdate`'s result (spec 2 §4: the
 * status must be `triggered`); undefined when it started. The action's own error, if any,
 * follows the spec's sentence.
 */
export function osUpdateStartProblem(result: { status?: string; error?: string } | null | undefined): string | undefined {
  if (result?.status === 'triggered') return undefined;
  return result?.error ? `${OS_UPDATE_NOT_STARTED}: ${result.error}` : OS_UPDATE_NOT_STARTED;
}

/**
 * Why the single-device OS update cannot be opened, or undefined: the device must be online
 * (the classification's reason) and have a version an update may go to (else the
 * classification's reason, or `noTarget` for an up-to-date device).
 */
export function osUpdateUnavailable(overview: OsUpdateOverview): { reason: string } | { noTarget: true } | undefined {
  const { state, reason } = overview.classification;
  if (state !== 'offline' && overview.targets.length > 0) return undefined;
  return reason ? { reason } : { noTarget: true };
}
