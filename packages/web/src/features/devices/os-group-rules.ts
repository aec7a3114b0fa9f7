import {
  classifyOsUpdate,
  compareParsedOsVersions,
  isOsUpdateAllowed,
  parseOsVersion,
  supervisorUpdateBlock,
  SUPERVISOR_UPDATE_MESSAGES,
  type OsUpdateState,
} from '@flotilla/model';
import { osUpdateOverview, supervisorOverview, type CatalogueOsVersion, type SupervisorRelease } from './os-rules';
import { mapWithConcurrency, REASON_CHECK_CONCURRENCY } from './reason-checks';

/**
 * Group host OS and supervisor updates from the fleet's device table (spec 2 §2 device
 * settings "group OS update" / "group supervisor update", §4, §8): which target versions the
 * selection may take, whether each selected device may take the chosen one and why not, the
 * run over the eligible devices with bounded concurrency, and its summary. Pure, over the
 * model's rules (the same the server enforces per device), no React, no I/O.
 */

/** What the group rules read of a selected device. */
export interface GroupDevice {
  id: number;
  uuid: string;
  name: string;
  deviceType: string;
  architecture: string;
  isOnline: boolean;
  osVersion: string | null;
  osVariant: string | null;
  supervisorVersion: string | null;
}

/** Most devices a group update runs on at once (spec 2 §9's reason-check concurrency). */
export const GROUP_UPDATE_CONCURRENCY = REASON_CHECK_CONCURRENCY;

/**
 * A catalogue OS version without its variant (`6.1.0+rev0.prod` → `6.1.0+rev0`): a group of
 * devices of both variants updates to one version, each to its own variant's release (the
 * server picks the release of the device's `os_variant` for a target without one).
 */
export function osGroupVersion(rawVersion: string): string {
  return rawVersion.replace(/\.(prod|dev)$/i, '');
}

const newestFirst = (versions: Iterable<string>): string[] =>
  [...new Set(versions)]
    .map((v) => ({ v, p: parseOsVersion(v) }))
    .filter((x) => x.p !== undefined)
    .sort((a, b) => compareParsedOsVersions(b.p!, a.p!))
    .map((x) => x.v);

const osDevice = (d: GroupDevice) => ({ deviceType: d.deviceType, isOnline: d.isOnline, osVersion: d.osVersion, osVariant: d.osVariant });

/**
 * The OS versions offered to the selection: every version (without variant) that at least one
 * selected device may update to — judged as if online, as the single-device dialog does —
 * newest first. Devices whose type's catalogue is missing from `versionsByType` add none.
 */
export function groupOsTargets(devices: readonly GroupDevice[], versionsByType: ReadonlyMap<string, readonly CatalogueOsVersion[]>): string[] {
  return newestFirst(
    devices.flatMap((d) => {
      const versions = versionsByType.get(d.deviceType);
      return versions ? osUpdateOverview(osDevice(d), versions).targets.map((t) => osGroupVersion(t.version)) : [];
    }),
  );
}

export type OsEligibility =
  | { eligible: true; takeover: boolean; esrSwitch: boolean }
  | { eligible: false; state: OsUpdateState; reason?: string };

/**
 * Whether one device may update to `target` (spec 2 §4): the model's classification against
 * its device type's catalogue; not eligible with the state and its reason otherwise (offline,
 * up to date, not supported, the ESR rules, a version its type does not offer).
 */
export function osEligibility(device: GroupDevice, target: string, versions: readonly CatalogueOsVersion[]): OsEligibility {
  const c = classifyOsUpdate(osDevice(device), target, versions);
  if (isOsUpdateAllowed(c)) return { eligible: true, takeover: c.takeover, esrSwitch: c.state === 'updatableSwitchToEsr' };
  return { eligible: false, state: c.state, ...(c.reason ? { reason: c.reason } : {}) };
}

/**
 * The supervisor versions offered to the selection: every release version at least one
 * selected device may move to (`supervisorOverview` against its architecture's releases),
 * newest first.
 */
export function groupSupervisorTargets(devices: readonly GroupDevice[], releasesByArch: ReadonlyMap<string, readonly SupervisorRelease[]>): string[] {
  return newestFirst(
    devices.flatMap((d) => {
      const releases = releasesByArch.get(d.architecture);
      return releases ? supervisorOverview({ osVersion: d.osVersion, supervisorVersion: d.supervisorVersion }, releases).newer.map((r) => r.raw_version) : [];
    }),
  );
}

export type SupervisorEligibility = { eligible: true; releaseId: number } | { eligible: false; reason: string };

/**
 * Whether one device may move to supervisor `target` (spec 2 §4 "Supervisor update"): its
 * architecture must have that release ('update not supported for type version' otherwise),
 * and `supervisorUpdateBlock` must allow it. Offline devices are eligible: the release is
 * set now and taken at the next poll.
 */
export function supervisorEligibility(device: GroupDevice, target: string, releases: readonly SupervisorRelease[]): SupervisorEligibility {
  const release = releases.find((r) => r.raw_version === target);
  if (!release) return { eligible: false, reason: SUPERVISOR_UPDATE_MESSAGES.notSupported };
  const block = supervisorUpdateBlock({ osVersion: device.osVersion, supervisorVersion: device.supervisorVersion }, target);
  return block ? { eligible: false, reason: block } : { eligible: true, releaseId: release.id };
}

export type GroupOutcome =
  | { device: GroupDevice; status: 'started' }
  | { device: GroupDevice; status: 'skipped'; reason: string }
  | { device: GroupDevice; status: 'refused'; reason: string };

/**
 * Runs `start` on the devices that `skipReason` lets through (undefined: eligible), at most
 * `concurrency` at once, in the devices' order. A skipped device is never called; a device
 * whose call fails is 'refused' with `messageOf(error)` — it never stops the others.
 */
export async function runGroupUpdate(
  devices: readonly GroupDevice[],
  skipReason: (device: GroupDevice) => string | undefined,
  start: (device: GroupDevice) => Promise<unknown>,
  messageOf: (error: unknown) => string,
  onOutcome: (outcome: GroupOutcome) => void = () => {},
  concurrency: number = GROUP_UPDATE_CONCURRENCY,
): Promise<GroupOutcome[]> {
  return mapWithConcurrency(devices, concurrency, async (device): Promise<GroupOutcome> => {
    const reason = skipReason(device);
    let outcome: GroupOutcome;
    if (reason !== undefined) outcome = { device, status: 'skipped', reason };
    else {
      try {
        await start(device);
        outcome = { device, status: 'started' };
      } catch (error) {
        outcome = { device, status: 'refused', reason: messageOf(error) };
      }
    }
    onOutcome(outcome);
    return outcome;
  });
}

export interface GroupSummary {
  started: number;
  skipped: { name: string; reason: string }[];
  refused: { name: string; reason: string }[];
}

/** Spec 2 §8's end of a group update: N started, M skipped with each reason, K refused by the server with its message. */
export function groupSummary(outcomes: readonly GroupOutcome[]): GroupSummary {
  const summary: GroupSummary = { started: 0, skipped: [], refused: [] };
  for (const o of outcomes) {
    if (o.status === 'started') summary.started++;
    else summary[o.status].push({ name: o.device.name, reason: o.reason });
  }
  return summary;
}
