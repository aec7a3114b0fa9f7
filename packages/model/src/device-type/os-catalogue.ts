import { CPU_ARCHITECTURES, DEVICE_TYPES, type DeviceTypeSeed } from './device-types.js';
import { SUPERVISOR_BLOCK_SUFFIX } from './os-lines.js';

/**
 * The host OS and supervisor catalogue (issue 17), reference data like the device-type
 * catalogue: seeded at every start (server features/reference-data), owned by the platform
 * organization, public, and read through the data API as balena-sdk's `os.*` and
 * `deviceType.getAllSupported` read them.
 *
 * - One public host-OS fleet (`is_host`, class `app`) per device type, named by the type's
 *   slug (`balena_os/raspberrypi3`), with the balenaOS releases below in both variants.
 * - One public ESR host-OS fleet per released device type (`balena_os/raspberrypi3-esr`,
 *   fleet tag `release-policy` = `esr` and the `esr-next` / `esr-current` / `esr-sunset`
 *   line ranges), with the ESR releases below.
 * - One public supervisor block per CPU architecture (`balena_os/aarch64-supervisor`, not
 *   `is_host`, for the first device type of that architecture), with the supervisor releases below.
 * - A discontinued type's host fleets are archived, so `deviceType.getAllSupported` leaves it out.
 */
export const PLATFORM_ORGANIZATION = { handle: 'balena_os', name: 'balenaOS' } as const;

/** Fleet tag naming a host fleet's OS type ('esr'; absent = default), as balena-sdk reads it. */
export const RELEASE_POLICY_TAG = 'release-policy';
/** Release tags balena-sdk reads on OS releases. */
export const OS_RELEASE_TAGS = { version: 'version', variant: 'variant', basedOn: 'meta-balena-base' } as const;
/** Release tag variant names (balena's): production / development. */
export const OS_VARIANT_TAG_VALUES = { prod: 'production', dev: 'development' } as const;
export const OS_VARIANTS = ['prod', 'dev'] as const;
export type OsVariant = (typeof OS_VARIANTS)[number];

/** Release lifecycle phase of a default-line OS release (balena's `release.phase`). */
export type OsReleasePhase = 'next' | 'current' | 'sunset' | 'end-of-life';

export interface CatalogueOsRelease {
  /** x.y.z */
  semver: string;
  revision: number;
  /** When it was published (ISO date): the release's created_at. */
  date: string;
  /** meta-balena version an ESR release is based on (the `meta-balena-base` tag); default-line releases are their own base. */
  basedOn?: string;
  phase?: OsReleasePhase;
  knownIssues?: string;
  note?: string;
}

/** The default (non-ESR) balenaOS line, oldest first. */
export const DEFAULT_OS_RELEASES: readonly CatalogueOsRelease[] = [
  { semver: '2.83.18', revision: 1, date: '2021-08-10', phase: 'end-of-life', note: 'Legacy 2.x release.' },
  { semver: '2.88.4', revision: 0, date: '2021-12-14', phase: 'end-of-life', note: 'Last release before the +rev1 convention ends.' },
  { semver: '2.113.18', revision: 0, date: '2023-03-02', phase: 'end-of-life' },
  { semver: '5.0.0', revision: 0, date: '2024-02-20', phase: 'sunset', knownIssues: 'Wi-Fi may reconnect slowly after a reboot on some boards.' },
  { semver: '5.3.21', revision: 0, date: '2024-09-12', phase: 'sunset' },
  { semver: '6.0.10', revision: 0, date: '2025-01-15', phase: 'current', note: 'Current balenaOS release.' },
  { semver: '6.1.0', revision: 0, date: '2025-06-03', phase: 'next', note: 'Next balenaOS line: new kernel.' },
];

/** The ESR line (first number above 2000), oldest first. */
export const ESR_OS_RELEASES: readonly CatalogueOsRelease[] = [
  { semver: '2023.1.0', revision: 0, date: '2023-02-01', basedOn: '2.108.0' },
  { semver: '2024.7.0', revision: 0, date: '2024-07-10', basedOn: '5.3.21' },
  { semver: '2024.10.1', revision: 0, date: '2024-10-22', basedOn: '5.3.21', knownIssues: 'Bluetooth firmware loads late on first boot.' },
  { semver: '2025.7.0', revision: 0, date: '2025-07-08', basedOn: '6.0.10' },
];

/** The ESR lines as fleet tags (balena's `esr-next` / `esr-current` / `esr-sunset`, each a `major.minor` range prefix). */
export const ESR_LINE_TAGS = { 'esr-current': '2025.7', 'esr-sunset': '2024.10' } as const;

/** Supervisor releases of every architecture's supervisor block, oldest first. */
export const SUPERVISOR_RELEASES: readonly { semver: string; date: string; note?: string }[] = [
  { semver: '14.0.0', date: '2023-01-10' },
  { semver: '14.11.14', date: '2023-09-01' },
  { semver: '16.4.6', date: '2024-08-01' },
  { semver: '17.0.2', date: '2025-03-01', note: 'Current supervisor.' },
];

/** The raw_version of a catalogue OS release (balena's OS release format): `2.88.4+rev1.prod`. */
export const osReleaseRawVersion = (r: Pick<CatalogueOsRelease, 'semver' | 'revision'>, variant: OsVariant): string =>
  `${r.semver}+rev${r.revision}.${variant}`;

/** The `version` release tag: `2.88.4+rev1`. */
export const osReleaseVersionTag = (r: Pick<CatalogueOsRelease, 'semver' | 'revision'>): string => `${r.semver}+rev${r.revision}`;

/** App names of the catalogue fleets. */
export const hostFleetName = (deviceType: string, esr = false): string => (esr ? `${deviceType}-esr` : deviceType);
export const supervisorFleetName = (arch: string): string => `${arch}${SUPERVISOR_BLOCK_SUFFIX}`;

export interface CatalogueFleet {
  appName: string;
  deviceType: string;
  kind: 'host' | 'supervisor';
  esr: boolean;
  archived: boolean;
}

/** Every catalogue fleet: per device type a host fleet (and an ESR one unless discontinued), per architecture a supervisor block. */
export function catalogueFleets(types: readonly DeviceTypeSeed[] = DEVICE_TYPES): CatalogueFleet[] {
  const fleets: CatalogueFleet[] = [];
  for (const dt of types) {
    const archived = dt.state === 'discontinued';
    fleets.push({ appName: hostFleetName(dt.slug), deviceType: dt.slug, kind: 'host', esr: false, archived });
    if (!archived) fleets.push({ appName: hostFleetName(dt.slug, true), deviceType: dt.slug, kind: 'host', esr: true, archived });
  }
  for (const arch of CPU_ARCHITECTURES) {
    const first = types.find((dt) => dt.arch === arch);
    if (first) fleets.push({ appName: supervisorFleetName(arch), deviceType: first.slug, kind: 'supervisor', esr: false, archived: false });
  }
  return fleets;
}
