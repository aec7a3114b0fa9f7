/**
 * Host OS lines (spec 2 §3 "OS lines: next, current, sunset, outdated"; default OS type
 * balenaOS, alternative ESR). A device's line follows from its reported `os_version` and the
 * OS release milestones below — reference data, like the device-type catalogue, which the
 * OS-update work will extend into a full release list. An ESR version is recognised by a
 * first number above 2000 (spec 2 §4).
 */
export const OS_LINES = ['next', 'current', 'sunset', 'outdated'] as const;
export type OsLine = (typeof OS_LINES)[number];

interface Milestones {
  /** The newest released version: the current line. Newer ones are the next line. */
  current: string;
  /** The oldest version still supported: from here up to current is the sunset line. */
  supportedFrom: string;
}

export const OS_RELEASE_MILESTONES: { balenaOS: Milestones; esr: Milestones } = {
  balenaOS: { current: '6.0.10', supportedFrom: '5.0.0' },
  esr: { current: '2025.7.0', supportedFrom: '2024.7.0' },
};

type Triple = [number, number, number];

/** The x.y.z of an OS version string ('balenaOS 6.0.10', 'Resin OS 2.3.0+rev1', '2025.7.0'), or undefined. */
export function osSemver(osVersion: string | null | undefined): Triple | undefined {
  const m = osVersion?.match(/^(?:(?:balena\s?OS|resin\s?OS)\s+)?v?(\d+)\.(\d+)\.(\d+)(?:[+.-].*)?$/i);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

function compare(a: Triple, b: Triple): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** Whether an OS version is on the ESR line (first number above 2000). */
export function isEsrVersion(osVersion: string | null | undefined): boolean {
  const v = osSemver(osVersion);
  return v !== undefined && v[0] > 2000;
}

/** The OS line of a reported version; undefined for a host OS that is not balenaOS (e.g. `Linux 6.8.0`). */
export function osLine(osVersion: string | null | undefined): OsLine | undefined {
  const v = osSemver(osVersion);
  if (!v) return undefined;
  const m = v[0] > 2000 ? OS_RELEASE_MILESTONES.esr : OS_RELEASE_MILESTONES.balenaOS;
  const current = osSemver(m.current)!;
  const order = compare(v, current);
  if (order > 0) return 'next';
  if (order === 0) return 'current';
  return compare(v, osSemver(m.supportedFrom)!) >= 0 ? 'sunset' : 'outdated';
}

/**
 * The fleets whose releases a device's `should_be_operated_by__release` (host OS) and
 * `should_be_managed_by__release` (supervisor) may name (issue 11, security 1): public
 * host-OS fleets (`is_host`) and public supervisor blocks (spec 2: "application slug of a
 * public supervisor block"; a block whose name ends in SUPERVISOR_BLOCK_SUFFIX). Their
 * releases are readable by every signed-in user (roles.ts), as the OS and supervisor update
 * dialogs need; the server also matches them to the device's type (features/devices).
 */
export const SUPERVISOR_BLOCK_SUFFIX = '-supervisor';

/** OData over the application at `at` (a path prefix, '' or `a/`): a public host-OS fleet or supervisor block. */
export const isPublicOsFleet = (at = ''): string =>
  `${at}is_public eq true and (${at}is_host eq true or (${at}is_of__class eq 'block' and endswith(tolower(${at}app_name), '${SUPERVISOR_BLOCK_SUFFIX}')))`;
