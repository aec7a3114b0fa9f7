/**
 * Host OS lines (spec 2 §3 "OS lines: next, current, sunset, outdated"; default OS type
 * balenaOS, alternative ESR). A device's line comes from the host OS catalogue's releases
 * (`osLineFromCatalogue` in os-updates.ts, over what balena-sdk's `os.getAvailableOsVersions`
 * returns), not from constants: the catalogue is the one source of release lines and dates.
 */
export const OS_LINES = ['next', 'current', 'sunset', 'outdated'] as const;
export type OsLine = (typeof OS_LINES)[number];

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
