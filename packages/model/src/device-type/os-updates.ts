import { compareParsedOsVersions, isEsrOsVersion, parseOsVersion, type OsVersion } from './os-versions.js';

/**
 * Host OS and supervisor update rules (spec 2 §4 "OS update classification per device",
 * "Supervisor update", §7 startOsUpdate / setSupervisorRelease; issue 17). Pure: the server
 * enforces them on device writes (features/devices), the dashboard shows the same results.
 */

/** Spec 2 §4 classification states, in the spec's words. */
export const OS_UPDATE_STATES = [
  'offline',
  'not supported',
  'upToDate',
  'versionNotAvailable',
  'updatableSwitchToEsr',
  'downgradeCannotSwitchToEsr',
  'forbiddenSwitchToNonEsr',
  'updatable',
] as const;
export type OsUpdateState = (typeof OS_UPDATE_STATES)[number];

/** The three update kinds (spec 2 §4). */
export const OS_UPDATE_KINDS = ['balenahup', 'resinhup11', 'resinhup12'] as const;
export type OsUpdateKind = (typeof OS_UPDATE_KINDS)[number];

/**
 * The action configuration: per update kind, the source versions it updates from (minimum
 * inclusive, maximum exclusive) and the targets it may install. Flotilla's values (docs/decisions.md).
 */
export const OS_UPDATE_ACTIONS: Record<OsUpdateKind, { minSourceVersion: string; maxSourceVersion?: string; minTargetVersion: string; maxTargetVersion?: string }> = {
  resinhup11: { minSourceVersion: '1.1.4', maxSourceVersion: '1.2.0', minTargetVersion: '2.0.0+rev1', maxTargetVersion: '3.0.0' },
  resinhup12: { minSourceVersion: '1.2.1', maxSourceVersion: '2.0.0', minTargetVersion: '2.0.0+rev1', maxTargetVersion: '3.0.0' },
  balenahup: { minSourceVersion: '2.14.0+rev1', minTargetVersion: '2.16.0+rev1' },
};

/**
 * Device types whose host OS re-partitions the disk from a given version on: an update from
 * below it to it or later is a takeover and needs an extra confirmation (spec 2 §4).
 */
export const OS_TAKEOVER_FROM: Readonly<Record<string, string>> = {
  'jetson-nano': '6.0.10',
  'generic-aarch64': '6.1.0',
};

/** Below this version a target without a revision is installed as `+rev1` (spec 2 §4). */
export const OS_REV1_BELOW = '2.88.4+rev0';

const v = (text: string): OsVersion => parseOsVersion(text)!;
const lt = (a: OsVersion, b: string) => compareParsedOsVersions(a, v(b)) < 0;

/** The update kind that takes `current` to `target`, or why none does. */
export function osUpdateKind(currentVersion: string, targetVersion: string): { kind: OsUpdateKind } | { reason: string } {
  const current = parseOsVersion(currentVersion);
  const target = parseOsVersion(targetVersion);
  if (!current) return { reason: 'Invalid current OS version' };
  if (!target) return { reason: 'Invalid target OS version' };
  const cmp = compareParsedOsVersions(target, current);
  if (cmp < 0) return { reason: 'OS downgrades are not allowed' };
  if (cmp === 0) return { reason: 'Current OS version matches target OS version' };
  if (current.variant && target.variant && current.variant !== target.variant) {
    return { reason: 'Updates cannot be performed between development and production OS variants' };
  }
  let reason = `Current OS version must be >= ${OS_UPDATE_ACTIONS.balenahup.minSourceVersion}`;
  for (const kind of OS_UPDATE_KINDS) {
    const a = OS_UPDATE_ACTIONS[kind];
    if (lt(current, a.minSourceVersion) || (a.maxSourceVersion && !lt(current, a.maxSourceVersion))) continue;
    if (lt(target, a.minTargetVersion)) {
      reason = `Target OS version must be >= ${a.minTargetVersion}`;
      continue;
    }
    if (a.maxTargetVersion && !lt(target, a.maxTargetVersion)) {
      reason = `Target OS version must be < ${a.maxTargetVersion}`;
      continue;
    }
    return { kind };
  }
  return { reason };
}

/** Whether updating `deviceType` from `current` to `target` re-partitions the disk (takeover: extra confirmation). */
export function osUpdateNeedsTakeover(deviceType: string, currentVersion: string, targetVersion: string): boolean {
  const from = OS_TAKEOVER_FROM[deviceType];
  const current = parseOsVersion(currentVersion);
  const target = parseOsVersion(targetVersion);
  if (!from || !current || !target) return false;
  return lt(current, from) && !lt(target, from);
}

/**
 * The version string an OS update action installs: a target below 2.88.4+rev0 given without
 * a revision is published as `+rev1`, so `2.83.18` becomes `2.83.18+rev1` (a variant stays).
 */
export function osUpdateActionVersion(targetVersion: string): string {
  const t = parseOsVersion(targetVersion);
  if (!t || /\+(?:[0-9A-Za-z-]+\.)*rev\d+/.test(targetVersion) || !lt(t, OS_REV1_BELOW)) return targetVersion;
  const core = `${t.major}.${t.minor}.${t.patch}${t.prerelease ? `-${t.prerelease}` : ''}`;
  return `${core}+rev1${t.variant ? `.${t.variant}` : ''}`;
}

/** One OS version of the catalogue as balena-sdk's `os.getAvailableOsVersions` gives it. */
export interface AvailableOsVersion {
  raw_version: string;
  osType: 'default' | 'esr' | string;
  /** meta-balena version it is based on (ESR releases); defaults to the version itself. */
  basedOnVersion?: string;
}

export interface OsUpdateDevice {
  deviceType: string;
  isOnline: boolean;
  /** As reported (`balenaOS 6.0.10`, `2.88.4+rev1`); null when never reported. */
  osVersion: string | null;
  osVariant?: string | null;
}

export interface OsUpdateClassification {
  state: OsUpdateState;
  /** For 'not supported' and the refusals: why (a sentence). */
  reason?: string;
  kind?: OsUpdateKind;
  /** The update re-partitions the disk: ask for an extra confirmation. */
  takeover: boolean;
  /** The version string the update action installs (see osUpdateActionVersion). */
  actionVersion?: string;
}

const sameVersion = (a: OsVersion, b: OsVersion) => compareParsedOsVersions(a, b) === 0;

/**
 * Spec 2 §4: what updating `device` to `targetVersion` would be, given the versions the
 * catalogue offers its device type (`available`: empty when the type has no host OS fleet).
 * Order: offline; not supported (no balenaOS version, or a type without OS releases);
 * versionNotAvailable; upToDate; ESR rules (an ESR device never switches to a non-ESR OS;
 * a non-ESR device switches to an ESR version only if that version's base is newer than what
 * it runs); then the update kind (downgrades and too-old sources are 'not supported'); updatable.
 */
export function classifyOsUpdate(device: OsUpdateDevice, targetVersion: string, available: readonly AvailableOsVersion[]): OsUpdateClassification {
  const no = (state: OsUpdateState, reason?: string): OsUpdateClassification => ({ state, ...(reason ? { reason } : {}), takeover: false });
  if (!device.isOnline) return no('offline', 'device must be online');
  // The reported variant (os_variant) counts where the version string does not carry one.
  const variant: OsVersion['variant'] = device.osVariant === 'prod' || device.osVariant === 'dev' ? device.osVariant : undefined;
  const parsed = parseOsVersion(device.osVersion);
  const current: OsVersion | undefined = parsed && !parsed.variant && variant ? { ...parsed, variant } : parsed;
  if (!current) return no('not supported', 'The device does not run a balenaOS version that can be updated');
  const currentText = parsed?.variant || !variant ? device.osVersion! : `${device.osVersion!}.${variant}`;
  if (available.length === 0) return no('not supported', 'OS version not supported for device type');
  const target = parseOsVersion(targetVersion);
  const offered = target && available.find((a) => {
    const p = parseOsVersion(a.raw_version);
    return p !== undefined && sameVersion(p, target);
  });
  if (!target || !offered) return no('versionNotAvailable', `OS version ${targetVersion} is not available for this device type`);
  if (sameVersion(current, target)) return no('upToDate');
  const currentEsr = isEsrOsVersion(current);
  const targetEsr = isEsrOsVersion(target) || offered.osType === 'esr';
  if (currentEsr && !targetEsr) return no('forbiddenSwitchToNonEsr', 'A device on an ESR line cannot switch to a non-ESR OS');
  let state: OsUpdateState = 'updatable';
  let kindSource = targetVersion;
  if (!currentEsr && targetEsr) {
    const base = parseOsVersion(offered.basedOnVersion ?? offered.raw_version);
    if (!base || compareParsedOsVersions(base, current) <= 0) {
      return no('downgradeCannotSwitchToEsr', 'This ESR version is based on an OS older than the one the device runs: switching to it would be a downgrade');
    }
    state = 'updatableSwitchToEsr';
    kindSource = offered.basedOnVersion ?? offered.raw_version;
  }
  if (current.variant && target.variant && current.variant !== target.variant) {
    return no('not supported', 'Updates cannot be performed between development and production OS variants');
  }
  const kind = osUpdateKind(currentText, kindSource);
  if ('reason' in kind) return no('not supported', kind.reason);
  return {
    state,
    kind: kind.kind,
    takeover: osUpdateNeedsTakeover(device.deviceType, device.osVersion!, targetVersion),
    actionVersion: osUpdateActionVersion(targetVersion),
  };
}

/** States in which an update may be started (after the takeover confirmation where `takeover`). */
export const isOsUpdateAllowed = (c: Pick<OsUpdateClassification, 'state'>): boolean => c.state === 'updatable' || c.state === 'updatableSwitchToEsr';

/** The newest non-prerelease version of the device's own line (ESR or default) in `available`, if any. */
export function recommendedOsVersion(device: Pick<OsUpdateDevice, 'osVersion'>, available: readonly AvailableOsVersion[]): string | undefined {
  const esr = isEsrOsVersion(device.osVersion);
  const ofLine = available
    .map((a) => ({ a, p: parseOsVersion(a.raw_version) }))
    .filter((x): x is { a: AvailableOsVersion; p: OsVersion } => x.p !== undefined && !x.p.prerelease && (isEsrOsVersion(x.p) || x.a.osType === 'esr') === esr);
  ofLine.sort((x, y) => compareParsedOsVersions(y.p, x.p));
  return ofLine[0]?.a.raw_version;
}

// ---- Supervisor (spec 2 §4 "Supervisor update") ----

/** Below these the device cannot take a supervisor-only update (the multi-container supervisor API and host OS). */
export const SUPERVISOR_UPDATE_MIN = { supervisor: '7.0.0', os: '2.12.0' } as const;

export const SUPERVISOR_UPDATE_MESSAGES = {
  notSupported: 'update not supported for type version',
  esr: 'Cannot update ESR supervisor',
  same: 'already running this version',
  older: 'The supervisor can only be updated to a newer version',
} as const;

export interface SupervisorUpdateDevice {
  osVersion: string | null;
  supervisorVersion: string | null;
}

/**
 * Why `device` cannot move to supervisor `targetVersion`, or undefined when it can. A device
 * that never reported a version is not judged on it (it takes its supervisor at provisioning).
 * Order: a host OS or supervisor too old for a supervisor-only update, or not balenaOS
 * ('update not supported for type version'); an ESR host OS, whose supervisor comes with the
 * OS ('Cannot update ESR supervisor'); the same version ('already running this version'); an
 * older one (newer only).
 */
export function supervisorUpdateBlock(device: SupervisorUpdateDevice, targetVersion: string): string | undefined {
  const target = parseOsVersion(targetVersion);
  if (!target) return SUPERVISOR_UPDATE_MESSAGES.notSupported;
  if (device.osVersion != null) {
    const os = parseOsVersion(device.osVersion);
    if (!os || lt(os, SUPERVISOR_UPDATE_MIN.os)) return SUPERVISOR_UPDATE_MESSAGES.notSupported;
    if (isEsrOsVersion(os)) return SUPERVISOR_UPDATE_MESSAGES.esr;
  }
  if (device.supervisorVersion != null) {
    const current = parseOsVersion(device.supervisorVersion);
    if (!current || lt(current, SUPERVISOR_UPDATE_MIN.supervisor)) return SUPERVISOR_UPDATE_MESSAGES.notSupported;
    const cmp = compareParsedOsVersions(target, current);
    if (cmp === 0) return SUPERVISOR_UPDATE_MESSAGES.same;
    if (cmp < 0) return SUPERVISOR_UPDATE_MESSAGES.older;
  }
  return undefined;
}

// ---- Host OS writes the server refuses (device.should_be_operated_by__release) ----

export const OS_RELEASE_MESSAGES = {
  notForType: 'OS version not supported for device type',
  toNonEsr: 'A device on an ESR line cannot switch to a non-ESR OS',
  esrDowngrade: 'This ESR version is based on an OS older than the one the device runs: switching to it would be a downgrade',
  downgrade: 'OS downgrades are not allowed',
} as const;

/**
 * Why a device running `osVersion` may not be given host OS release `targetVersion` (of its
 * type's host fleet, `targetEsr` when of an ESR fleet, `basedOn` its meta-balena base), or
 * undefined. The same version is allowed (a device's own OS release); a device that never
 * reported a balenaOS version is not judged.
 */
export function osReleaseWriteBlock(osVersion: string | null, target: { version: string; esr: boolean; basedOn?: string | null }): string | undefined {
  const current = parseOsVersion(osVersion);
  const t = parseOsVersion(target.version);
  if (!t) return OS_RELEASE_MESSAGES.notForType;
  if (!current) return undefined;
  const cmp = compareParsedOsVersions(t, current);
  if (cmp === 0) return undefined;
  const currentEsr = isEsrOsVersion(current);
  const targetEsr = target.esr || isEsrOsVersion(t);
  if (currentEsr && !targetEsr) return OS_RELEASE_MESSAGES.toNonEsr;
  if (!currentEsr && targetEsr) {
    const base = parseOsVersion(target.basedOn ?? target.version);
    return base && compareParsedOsVersions(base, current) > 0 ? undefined : OS_RELEASE_MESSAGES.esrDowngrade;
  }
  return cmp < 0 ? OS_RELEASE_MESSAGES.downgrade : undefined;
}

// ---- OS line from catalogue data (for the OS line badge) ----

/** A catalogue OS release with its line, as balena-sdk's `os.getAvailableOsVersions` gives it (`line`). */
export interface OsVersionWithLine extends AvailableOsVersion {
  line?: string | null;
}

/**
 * The OS line (spec 2 §3: next, current, sunset, outdated) of a reported version, from the
 * catalogue's releases of the device's type: the line of the matching release ('end-of-life'
 * is outdated); a version the catalogue does not list is outdated when older than every
 * release of its line (ESR or default) and next when newer than all; undefined otherwise or
 * for a host OS that is not balenaOS.
 */
export function osLineFromCatalogue(osVersion: string | null | undefined, releases: readonly OsVersionWithLine[]): 'next' | 'current' | 'sunset' | 'outdated' | undefined {
  const current = parseOsVersion(osVersion);
  if (!current) return undefined;
  const esr = isEsrOsVersion(current);
  const ofLine = releases
    .map((r) => ({ r, p: parseOsVersion(r.raw_version) }))
    .filter((x): x is { r: OsVersionWithLine; p: OsVersion } => x.p !== undefined && (isEsrOsVersion(x.p) || x.r.osType === 'esr') === esr);
  const norm = (line: string | null | undefined) =>
    line === 'end-of-life' ? 'outdated' : line === 'next' || line === 'current' || line === 'sunset' || line === 'outdated' ? line : undefined;
  const exact = ofLine.find((x) => compareParsedOsVersions(x.p, current) === 0);
  if (exact) return norm(exact.r.line);
  if (ofLine.length === 0) return undefined;
  if (ofLine.every((x) => compareParsedOsVersions(current, x.p) < 0)) return 'outdated';
  if (ofLine.every((x) => compareParsedOsVersions(current, x.p) > 0)) return 'next';
  // Between releases: the line of the newest release older than it.
  const older = ofLine.filter((x) => compareParsedOsVersions(x.p, current) < 0).sort((a, b) => compareParsedOsVersions(b.p, a.p));
  return norm(older[0]?.r.line);
}

// ---- Starting a host OS update (spec 2 §4 "Starting an update", §7 startOsUpdate; issue 17) ----

/**
 * balena-sdk's `device.startOsUpdate` posts `{parameters: {target_version}}` to the actions
 * service at `/{v1|v2}/{uuid}/resinhup`; Flotilla serves it under ACTIONS_SERVICE_PATH.
 */
export const OS_UPDATE_ACTION = 'resinhup';

/** Spec 2 §4 / §8: the message of every refusal to start an update (its reason follows after a colon). */
export const OS_UPDATE_START_FAILED = 'Cannot start the update process';

/** The answer of a started update: balena-sdk's `OsUpdateActionResult` with status `triggered`. */
export interface OsUpdateTriggered {
  status: 'triggered';
  action: typeof OS_UPDATE_ACTION;
  parameters: { target_version: string };
  /** ms since the epoch. */
  last_run: number;
}

/**
 * What the server sends the agent with the `os-update` action over the cloud link: the
 * catalogue release to install (`targetVersion` its raw version, `version` the version tag
 * without variant — what the device reports afterwards), the update kind and whether it is
 * a takeover, and where its image is (null when the catalogue release carries none).
 */
export interface OsUpdateParams {
  targetVersion: string;
  version: string;
  variant: 'prod' | 'dev' | null;
  kind: OsUpdateKind;
  takeover: boolean;
  image: string | null;
}

/**
 * What a device reports while its host OS updates: `status` this text, `provisioning_state`
 * the step (the hook's words), `provisioning_progress` 0–100; both cleared when it ends.
 */
export const OS_UPDATE_DEVICE_STATUS = 'Updating host OS';

/** Whether `v` is an OsUpdateParams (the agent checks what the link brings). */
export function isOsUpdateParams(v: unknown): v is OsUpdateParams {
  if (typeof v !== 'object' || v === null) return false;
  const p = v as Record<string, unknown>;
  return (
    typeof p.targetVersion === 'string' &&
    typeof p.version === 'string' &&
    (p.variant === null || p.variant === 'prod' || p.variant === 'dev') &&
    typeof p.kind === 'string' &&
    (OS_UPDATE_KINDS as readonly string[]).includes(p.kind) &&
    typeof p.takeover === 'boolean' &&
    (p.image === null || typeof p.image === 'string')
  );
}
