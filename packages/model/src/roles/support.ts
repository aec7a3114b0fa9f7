import { through } from './filters.js';

/**
 * Issue 19 item 2: what a support agent reads. Customer fleet data opens only under a
 * support-access grant that has not expired (`is_accessible_by_support_until__date gt
 * now()` on the fleet or the device); the organization's structure (organizations, users,
 * memberships, teams, invitations to the organization, billing references) stays readable
 * so that support can answer tickets. `now()` is PostgreSQL's clock at the time the
 * statement runs: the compiled condition holds no time value, so a cached statement is
 * right whenever it runs (an expired grant closes at once).
 */

/** The fleet or device at `at` has granted support access that has not expired. */
export const supportGranted = (at = ''): string => `${at}is_accessible_by_support_until__date gt now()`;

/** The fleet `fk` of the row at `at` points at has granted support access. */
const fleetGranted = (fk: string, at = ''): string => through(at, fk, 'sa', supportGranted);

/** The device `fk` of the row at `at` points at is open to support: its own grant or its fleet's. */
const deviceOpen = (fk: string, at = ''): string =>
  through(at, fk, 'sd', (d) => `(${supportGranted(d)} or ${fleetGranted('belongs_to__application', d)})`);

/**
 * Per resource of customer fleet data, the condition under which a support agent reads a
 * row. A resource of the model that is not listed here and not in SUPPORT_NEVER is read
 * unconditionally (organization structure and reference data; `support.spec.ts` lists
 * them, so a new resource with a path to a fleet or device cannot slip in unconditioned).
 */
export const SUPPORT_GRANTED_READS: Readonly<Record<string, string>> = {
  // The fleet itself: its own grant, or (read-only context for a device page) a device of it
  // that is granted.
  application: `(${supportGranted()} or owns__device/any(gd:${supportGranted('gd/')}))`,
  user_application_membership: fleetGranted('is_member_of__application'),
  invitee__is_invited_to__application: fleetGranted('is_invited_to__application'),
  release: fleetGranted('belongs_to__application'),
  release_tag: through('', 'release', 'rl', (rl) => fleetGranted('belongs_to__application', rl)),
  release_asset: through('', 'release', 'rl', (rl) => fleetGranted('belongs_to__application', rl)),
  image__is_part_of__release: through('', 'is_part_of__release', 'rl', (rl) => fleetGranted('belongs_to__application', rl)),
  // Services: the fleet's grant, or installed on a granted device (the device page names them).
  service: `(${fleetGranted('application')} or service_install/any(si:${deviceOpen('device', 'si/')}))`,
  image: through('', 'is_a_build_of__service', 'sv', (sv) => fleetGranted('application', sv)),
  application_tag: fleetGranted('application'),
  application_environment_variable: fleetGranted('application'),
  application_config_variable: fleetGranted('application'),
  build_environment_variable: fleetGranted('application'),
  service_environment_variable: through('', 'service', 'sv', (sv) => fleetGranted('application', sv)),
  variable_change: fleetGranted('application'),
  device: `(${supportGranted()} or ${fleetGranted('belongs_to__application')})`,
  device_tag: deviceOpen('device'),
  image_install: deviceOpen('device'),
  service_install: deviceOpen('device'),
  device_environment_variable: deviceOpen('device'),
  device_config_variable: deviceOpen('device'),
  device_service_environment_variable: through('', 'service_install', 'si', (si) => deviceOpen('device', si)),
  terminal_session: deviceOpen('device'),
  // Keys: the provisioning keys of a granted fleet and the device keys of an open device
  // (names and dates; the key itself is secret). Users' own named keys are not support's.
  api_key: through('', 'is_of__actor', 'ak', (ak) => `(${through(ak, 'is_of__application', 'ka', (ka) => supportGranted(ka))} or ${through(ak, 'is_of__device', 'kd', (kd) => `(${supportGranted(kd)} or ${fleetGranted('belongs_to__application', kd)})`)})`),
};

/**
 * What a support agent never reads: the mail outbox holds invitation and password-reset links,
 * which would let support staff act as the recipients; the audit trail is the customer's
 * record of what staff read.
 */
export const SUPPORT_NEVER: ReadonlySet<string> = new Set(['email_outbox', 'audit_event']);

/** The support agent's read permissions over the model's resources (`resources`: their names). */
export function supportAgentReads(resources: readonly string[]): string[] {
  return resources
    .filter((r) => !SUPPORT_NEVER.has(r))
    .map((r) => (r in SUPPORT_GRANTED_READS ? `resin.${r}.read?${SUPPORT_GRANTED_READS[r]}` : `resin.${r}.read`));
}
