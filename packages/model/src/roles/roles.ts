import { model } from '../model.js';
import { isPublicOsFleet } from '../device-type/os-lines.js';
import { fleetRoleAtLeast, inOrganization, isOrgAdmin, isOrgMember, onFleet, sharesOrganizationWithMe, through, userIsMe } from './filters.js';
import type { DeviceOperation } from '../types.js';
import type { FleetRole } from './fleet.js';
import { DEVICE_OPERATIONS, deviceOperationRole } from './fleet-permissions.js';
import { SUPPORT_GRANTED_READS, supportAgentReads } from './support.js';

export * from './fleet.js';
export { fleetRoleAtLeast } from './filters.js';
export * from './fleet-permissions.js';
export * from './support.js';

/**
 * Roles as data. Each role maps to a permission set; conditions are OData filters over the
 * resource, bound to the acting actor (`@__ACTOR_ID`). The data API AND-s them into SQL.
 * The condition builders are in roles/filters.ts; fleet role levels in roles/fleet.ts.
 */

const ME = `actor eq @__ACTOR_ID`;

/** Reference data everyone (signed in or not) may read. */
const PUBLIC_REFERENCE = [
  'resin.cpu_architecture.read',
  'resin.device_type.read?is_private eq false',
  'resin.device_type_alias.read?device_type/any(dt:dt/is_private eq false)',
  'resin.application_type.read',
  'resin.organization_membership_role.read',
];

// Where each resource finds its organization or fleet.
const orgAdminOf = (fk: string) => inOrganization(fk, isOrgAdmin);
const orgMemberOf = (fk: string) => inOrganization(fk, isOrgMember);
/** The caller's role on the fleet that the foreign key `fk` points at is `level` or higher. */
const fleetRoleOf = (fk: string, level: Parameters<typeof fleetRoleAtLeast>[0]) => onFleet(fk, (a) => fleetRoleAtLeast(level, a));
/** Of a team row (or a row whose `fk` is a team): a condition on the team's organization. */
const teamOrg = (fk: string, cond: (at: string) => string) => through('', fk, 't', (t) => inOrganization('belongs_to__organization', cond, t));

/** Of a row whose `organization_membership` is a membership: a condition on its organization. */
const membershipOrg = (cond: (at: string) => string) =>
  through('', 'organization_membership', 'mb', (m) => inOrganization('is_member_of__organization', cond, m));

/**
 * read / create / update / delete of `resource`, where `on(level)` is the condition that the
 * caller's role reaches `level`: `read` for reading, `write` for the three writes.
 */
function crud(resource: string, on: (level: FleetRole) => string, levels: { read: FleetRole; write: FleetRole }): string[] {
  return [
    `resin.${resource}.read?${on(levels.read)}`,
    ...(['create', 'update', 'delete'] as const).map((verb) => `resin.${resource}.${verb}?${on(levels.write)}`),
  ];
}

/**
 * Of an identity provider (the row at `at`): it authorizes an organization the caller
 * administers. Such a caller reads the provider, its memberships and its SAML accounts; only
 * an administrator of EVERY organization it authorizes changes them (a hook,
 * features/identity-providers, so that the others get the spec's message).
 */
const idpOfAdministeredOrg = (at = '') => through(at, 'identity_provider_membership', 'im', (m) => inOrganization('organization', isOrgAdmin, m));
const viaIdp = (fk: string) => through('', fk, 'ip', idpOfAdministeredOrg);

/** An api_key whose actor is a fleet on which the caller is operator or higher. */
const PROVISIONING_KEY_OF_OPERATED_FLEET = through('', 'is_of__actor', 'ak', (ak) =>
  through(ak, 'is_of__application', 'ka', (ka) => fleetRoleAtLeast('operator', ka)),
);

/** An api_key whose actor is a device of a fleet on which the caller is observer or higher. */
const DEVICE_KEY_OF_READABLE_DEVICE = through('', 'is_of__actor', 'ak', (ak) =>
  through(ak, 'is_of__device', 'kd', (kd) => onFleet('belongs_to__application', (a) => fleetRoleAtLeast('observer', a), kd)),
);

/** The fleet at `at` owns the calling device. */
const OWNS_ME = (at: string) => through(at, 'owns__device', 'od', (od) => `${od}${ME}`);

/**
 * The public host OS and supervisor catalogue (issue 17): releases of public host-OS fleets
 * and supervisor blocks, their release tags (version, variant, meta-balena-base) and the
 * fleets' tags (release-policy, ESR lines), readable by everyone, signed in or not, as
 * balena-sdk's `os.getAvailableOsVersions` reads them on balena's own download page.
 */
const PUBLIC_OS_CATALOGUE = [
  `resin.release.read?${onFleet('belongs_to__application', isPublicOsFleet)}`,
  `resin.release_tag.read?${through('', 'release', 'rl', (rl) => onFleet('belongs_to__application', isPublicOsFleet, rl))}`,
  `resin.application_tag.read?${onFleet('application', isPublicOsFleet)}`,
];

export const ROLES = {
  anonymous: [...PUBLIC_REFERENCE, 'resin.application.read?is_public eq true', ...PUBLIC_OS_CATALOGUE],

  'default-user': [
    ...PUBLIC_REFERENCE,
    'resin.application_membership_role.read',
    `resin.actor.read?id eq @__ACTOR_ID`,
    // The actors of the fleets and devices the caller reads, so that filters through them
    // (`api_key?$filter=is_of__actor/any(a: a/is_of__application/any(…))`) work; an actor
    // has no field but its id.
    `resin.actor.read?${through('', 'is_of__application', 'fa', (fa) => fleetRoleAtLeast('observer', fa))}`,
    `resin.actor.read?${through('', 'is_of__device', 'da', (da) => onFleet('belongs_to__application', (a) => fleetRoleAtLeast('observer', a), da))}`,
    // Users: the caller and their organizations' members read a user (username, names…);
    // the private fields (email, newsletter, account type…) only the user themself.
    `resin.user.read?${ME} or ${sharesOrganizationWithMe()}`,
    `resin.user.read-private?${ME}`,
    `resin.user.update?${ME}`,
    `resin.api_key.read?is_of__actor eq @__ACTOR_ID`,
    `resin.api_key.update?is_of__actor eq @__ACTOR_ID`,
    `resin.api_key.delete?is_of__actor eq @__ACTOR_ID`,
    // SSH keys (spec 1 §3): a user reads, adds and deletes their own keys only; linked
    // social accounts are read-only (written by social login, a later issue).
    `resin.user__has__public_key.read?${userIsMe()}`,
    `resin.user__has__public_key.create?${userIsMe()}`,
    `resin.user__has__public_key.delete?${userIsMe()}`,
    `resin.social_service_account.read?${through('', 'belongs_to__user', 'su', (su) => `${su}${ME}`)}`,
    // OAuth login (spec 1 §2): any user reads the registered applications (the consent page);
    // their own consent records only. Both are written by POST /oauth/authorize.
    'resin.oauth_application.read',
    `resin.oauth_application_authorization.read?${through('', 'belongs_to__user', 'ou', (ou) => `${ou}${ME}`)}`,
    // Provisioning keys (spec 2 §6 "Operator adds: API keys"): fleet operators and up list,
    // rename and revoke their fleet's keys (created by POST /api-key/v2/; only name and
    // description may change, a hook). The key value itself is secret.
    `resin.api_key.read?${PROVISIONING_KEY_OF_OPERATED_FLEET}`,
    `resin.api_key.update?${PROVISIONING_KEY_OF_OPERATED_FLEET}`,
    `resin.api_key.delete?${PROVISIONING_KEY_OF_OPERATED_FLEET}`,
    // Device keys (balena-sdk `apiKey.getDeviceApiKeysByDevice`): whoever reads a device reads
    // its keys' names, descriptions and dates, as balena allows; the key itself stays secret.
    // Only the device (its own actor) and the device-key endpoint write them.
    `resin.api_key.read?${DEVICE_KEY_OF_READABLE_DEVICE}`,

    // Organizations: members read; administrators change. Any user may create one (and
    // becomes its administrator).
    `resin.organization.read?${isOrgMember()}`,
    'resin.organization.create',
    `resin.organization.update?${isOrgAdmin()}`,
    `resin.organization.delete?${isOrgAdmin()}`,

    // Billing (spec 3, docs/billing.md): the catalogue is public to signed-in users (the
    // plans table, seat and device prices); an organization's subscription is read by its
    // members (the invite dialog's seat price). Both are written by the billing service only.
    'resin.feature.read',
    'resin.plan.read',
    'resin.plan_feature.read',
    'resin.plan_addon.read',
    `resin.subscription.read?${orgMemberOf('is_for__organization')}`,
    // Credits (issue 18 item 7): billing-access users (the organization's administrators)
    // read and buy its credit bundles (the purchase is priced and charged by a hook; nobody
    // edits or deletes one) and manage its low-credit notification.
    `resin.credit_bundle.read?${orgAdminOf('belongs_to__organization')}`,
    `resin.credit_bundle.create?${orgAdminOf('belongs_to__organization')}`,
    ...(['read', 'create', 'update', 'delete'] as const).map((verb) => `resin.organization_credit_notification.${verb}?${orgAdminOf('organization')}`),

    // The organization's audit trail (issue 19 item 2: what provider staff read): its
    // administrators only; only the server writes it (features/staff-audit).
    `resin.audit_event.read?${orgAdminOf('organization')}`,

    `resin.organization_membership.read?${orgMemberOf('is_member_of__organization')}`,
    `resin.organization_membership.create?${orgAdminOf('is_member_of__organization')}`,
    `resin.organization_membership.update?${orgAdminOf('is_member_of__organization')}`,
    `resin.organization_membership.delete?${orgAdminOf('is_member_of__organization')}`,
    // A user may always delete their own membership (leave); the last-administrator rule
    // is a hook.
    `resin.organization_membership.delete?${userIsMe()}`,
    // Member tags (balena-sdk organization.membership.tags): read like the memberships,
    // written by the organization's administrators.
    `resin.organization_membership_tag.read?${membershipOrg(isOrgMember)}`,
    ...(['create', 'update', 'delete'] as const).map((verb) => `resin.organization_membership_tag.${verb}?${membershipOrg(isOrgAdmin)}`),

    // Identity providers (spec 1 §3, §6, issue 20): read by the administrators of any
    // organization the provider authorizes; created by an administrator of the organization
    // named in `organization_id` whose plan includes SAML; changed and removed only by an
    // administrator of every one of its organizations (hooks, features/identity-providers).
    `resin.identity_provider.read?${idpOfAdministeredOrg()}`,
    'resin.identity_provider.create',
    `resin.identity_provider.update?${idpOfAdministeredOrg()}`,
    `resin.identity_provider.delete?${idpOfAdministeredOrg()}`,
    `resin.identity_provider_membership.read?${viaIdp('is_authorized_by__identity_provider')}`,
    `resin.identity_provider_membership.create?${orgAdminOf('organization')}`,
    `resin.identity_provider_membership.update?${viaIdp('is_authorized_by__identity_provider')}`,
    // (Also through its own organization: a PATCH that sets the team re-checks the row with
    // the update rule, skipping the row itself in navigations, so a provider's only
    // membership would not pass through the provider.)
    `resin.identity_provider_membership.update?${orgAdminOf('organization')}`,
    `resin.identity_provider_membership.delete?${viaIdp('is_authorized_by__identity_provider')}`,
    // SAML accounts: written by SAML sign-in only; read by their user and the provider's
    // readers; revoked (deleted) by the provider's administrator (a hook).
    `resin.saml_account.read?${through('', 'belongs_to__user', 'su', (su) => `${su}${ME}`)}`,
    `resin.saml_account.read?${viaIdp('was_generated_by__identity_provider')}`,
    `resin.saml_account.delete?${viaIdp('was_generated_by__identity_provider')}`,

    // Fleets (spec 2 §6 table rights). The effective fleet role is the highest of the
    // organization role, a direct fleet membership and team access (roles/filters.ts).
    // Public fleets: everybody reads. Observers and up read; developers and up change
    // (rename, settings; moving to another organization needs organization administrator
    // rights, a hook); fleet administrators delete; organization administrators create.
    'resin.application.read?is_public eq true',
    `resin.application.read?${fleetRoleAtLeast('observer')}`,
    `resin.application.create?${orgAdminOf('organization')}`,
    `resin.application.update?${fleetRoleAtLeast('developer')}`,
    `resin.application.delete?${fleetRoleAtLeast('administrator')}`,

    // Direct fleet memberships: whoever has a role on the fleet reads them; fleet
    // administrators (organization administrators included) manage them.
    `resin.user_application_membership.read?${fleetRoleOf('is_member_of__application', 'observer')}`,
    `resin.user_application_membership.create?${fleetRoleOf('is_member_of__application', 'administrator')}`,
    `resin.user_application_membership.update?${fleetRoleOf('is_member_of__application', 'administrator')}`,
    `resin.user_application_membership.delete?${fleetRoleOf('is_member_of__application', 'administrator')}`,

    // Teams: organization members read, organization administrators manage.
    `resin.team.read?${orgMemberOf('belongs_to__organization')}`,
    `resin.team.create?${orgAdminOf('belongs_to__organization')}`,
    `resin.team.update?${orgAdminOf('belongs_to__organization')}`,
    `resin.team.delete?${orgAdminOf('belongs_to__organization')}`,

    // Team memberships: organization members read, administrators add and remove; a user
    // may leave a team.
    `resin.team_membership.read?${teamOrg('is_member_of__team', isOrgMember)}`,
    `resin.team_membership.create?${teamOrg('is_member_of__team', isOrgAdmin)}`,
    `resin.team_membership.update?${teamOrg('is_member_of__team', isOrgAdmin)}`,
    `resin.team_membership.delete?${teamOrg('is_member_of__team', isOrgAdmin)}`,
    `resin.team_membership.delete?${userIsMe()}`,

    // Team fleet access (spec 2 §6: administrator full, developer read only): fleet
    // developers and the team's organization members (the team pages) read; administrators
    // of the team's organization who are also fleet administrators manage (the fleet must
    // belong to the team's organization: a hook).
    `resin.team_application_access.read?${fleetRoleOf('grants_access_to__application', 'developer')}`,
    `resin.team_application_access.read?${teamOrg('team', isOrgMember)}`,
    `resin.team_application_access.create?${teamOrg('team', isOrgAdmin)} and ${fleetRoleOf('grants_access_to__application', 'administrator')}`,
    `resin.team_application_access.update?${teamOrg('team', isOrgAdmin)} and ${fleetRoleOf('grants_access_to__application', 'administrator')}`,
    `resin.team_application_access.delete?${teamOrg('team', isOrgAdmin)} and ${fleetRoleOf('grants_access_to__application', 'administrator')}`,

    // Releases (spec 2 §6 table rights): whoever reads the fleet reads its releases, their
    // services, images and tags; developers and administrators create (deploy), edit and
    // delete them (rules such as 'cannot delete pinned releases' are hooks).
    ...crud('release', (level) => fleetRoleOf('belongs_to__application', level), { read: 'observer', write: 'developer' }),
    // Releases of public host-OS fleets and supervisor blocks: what a device's OS and
    // supervisor release may name (os-lines.ts), read by the update dialogs.
    ...PUBLIC_OS_CATALOGUE,
    ...crud('service', (level) => fleetRoleOf('application', level), { read: 'observer', write: 'developer' }),
    ...crud('image', (level) => through('', 'is_a_build_of__service', 'sv', (sv) => onFleet('application', (a) => fleetRoleAtLeast(level, a), sv)), { read: 'observer', write: 'developer' }),
    ...crud('image__is_part_of__release', (level) => through('', 'is_part_of__release', 'rl', (rl) => onFleet('belongs_to__application', (a) => fleetRoleAtLeast(level, a), rl)), { read: 'observer', write: 'developer' }),
    ...crud('release_tag', (level) => through('', 'release', 'rl', (rl) => onFleet('belongs_to__application', (a) => fleetRoleAtLeast(level, a), rl)), { read: 'observer', write: 'developer' }),
    // Release assets (balena's release_asset): read by whoever reads the release, written by
    // whoever may write the fleet's releases.
    ...crud('release_asset', (level) => through('', 'release', 'rl', (rl) => onFleet('belongs_to__application', (a) => fleetRoleAtLeast(level, a), rl)), { read: 'observer', write: 'developer' }),
    `resin.release_asset.read?${through('', 'release', 'rl', (rl) => onFleet('belongs_to__application', isPublicOsFleet, rl))}`,
    // Fleet tags: developers edit them like the fleet's name (spec 2 §6).
    ...crud('application_tag', (level) => fleetRoleOf('application', level), { read: 'observer', write: 'developer' }),
    // Devices: observers read; operators and up create, change and delete (spec 2 §6).
    ...crud('device', (level) => fleetRoleOf('belongs_to__application', level), { read: 'observer', write: 'operator' }),
    // Live operations that are rights of their own (spec 2 §6): terminal, host terminal,
    // diagnostics, clearing logs — each at the fleet role fleet-permissions.ts names.
    ...(Object.keys(DEVICE_OPERATIONS) as DeviceOperation[]).map(
      (op) => `resin.device.${op}?${fleetRoleOf('belongs_to__application', deviceOperationRole(op))}`,
    ),
    // The web terminal's audit trail (issue 15): read by the administrators of the device's
    // fleet (and organization); nobody writes it through the data API (features/terminal does).
    `resin.terminal_session.read?${through('', 'device', 'dv', (dv) => onFleet('belongs_to__application', (a) => fleetRoleAtLeast('administrator', a), dv))}`,
    // Device tags: "Operator adds: … device tags" (spec 2 §6).
    ...crud('device_tag', (level) => through('', 'device', 'dv', (dv) => onFleet('belongs_to__application', (a) => fleetRoleAtLeast(level, a), dv)), { read: 'observer', write: 'operator' }),
    // What devices run (image_install, service_install): written by the device API from
    // the devices' state reports, read by whoever reads the device.
    `resin.image_install.read?${through('', 'device', 'dv', (dv) => onFleet('belongs_to__application', (a) => fleetRoleAtLeast('observer', a), dv))}`,
    `resin.service_install.read?${through('', 'device', 'dv', (dv) => onFleet('belongs_to__application', (a) => fleetRoleAtLeast('observer', a), dv))}`,
    // Variables (spec 2 §6): whoever reads the fleet reads them; fleet and service
    // variables are changed by developers and up, a device's (config, environment, service
    // overrides) by operators and up ("Operator adds: … device config, environment and
    // service variables"). Name rules are hooks (features/variables).
    ...crud('application_environment_variable', (level) => fleetRoleOf('application', level), { read: 'observer', write: 'developer' }),
    ...crud('application_config_variable', (level) => fleetRoleOf('application', level), { read: 'observer', write: 'developer' }),
    ...crud('build_environment_variable', (level) => fleetRoleOf('application', level), { read: 'observer', write: 'developer' }),
    ...crud('service_environment_variable', (level) => through('', 'service', 'sv', (sv) => onFleet('application', (a) => fleetRoleAtLeast(level, a), sv)), { read: 'observer', write: 'developer' }),
    ...crud('device_environment_variable', (level) => through('', 'device', 'dv', (dv) => onFleet('belongs_to__application', (a) => fleetRoleAtLeast(level, a), dv)), { read: 'observer', write: 'operator' }),
    ...crud('device_config_variable', (level) => through('', 'device', 'dv', (dv) => onFleet('belongs_to__application', (a) => fleetRoleAtLeast(level, a), dv)), { read: 'observer', write: 'operator' }),
    ...crud(
      'device_service_environment_variable',
      (level) => through('', 'service_install', 'si', (si) => through(si, 'device', 'dv', (dv) => onFleet('belongs_to__application', (a) => fleetRoleAtLeast(level, a), dv))),
      { read: 'observer', write: 'operator' },
    ),
    // Their history (issue 16): whoever reads the fleet reads it; only the server writes it
    // (features/variables, in each variable write's transaction).
    `resin.variable_change.read?${fleetRoleOf('application', 'observer')}`,

    // Invitations (spec 1 §3–§5): organization administrators read, create and revoke
    // their organization's invites, fleet administrators their fleet's. Nobody updates an
    // invite; the invitee never reads it here (they hold the mailed token instead).
    `resin.invitee__is_invited_to__organization.read?${orgAdminOf('is_invited_to__organization')}`,
    `resin.invitee__is_invited_to__organization.create?${orgAdminOf('is_invited_to__organization')}`,
    `resin.invitee__is_invited_to__organization.delete?${orgAdminOf('is_invited_to__organization')}`,
    `resin.invitee__is_invited_to__application.read?${fleetRoleOf('is_invited_to__application', 'administrator')}`,
    `resin.invitee__is_invited_to__application.create?${fleetRoleOf('is_invited_to__application', 'administrator')}`,
    `resin.invitee__is_invited_to__application.delete?${fleetRoleOf('is_invited_to__application', 'administrator')}`,
    // The invitee (its e-mail) of an invite the caller reads; the invite hooks write them.
    `resin.invitee.read?${through('', 'invitee__is_invited_to__organization', 'io', (i) => inOrganization('is_invited_to__organization', isOrgAdmin, i))} or ${through('', 'invitee__is_invited_to__application', 'ia', (i) => onFleet('is_invited_to__application', (a) => fleetRoleAtLeast('administrator', a), i))}`,
  ],

  /**
   * A device authenticated with its device API key (dialect §4): its own row and what it
   * runs, and its fleet's application, releases, services and images; nothing else.
   */
  device: [
    ...PUBLIC_REFERENCE,
    `resin.actor.read?id eq @__ACTOR_ID`,
    `resin.device.read?${ME}`,
    `resin.image_install.read?${through('', 'device', 'dv', (dv) => `${dv}${ME}`)}`,
    `resin.service_install.read?${through('', 'device', 'dv', (dv) => `${dv}${ME}`)}`,
    `resin.application.read?${OWNS_ME('')}`,
    `resin.release.read?${onFleet('belongs_to__application', OWNS_ME)}`,
    `resin.service.read?${onFleet('application', OWNS_ME)}`,
    `resin.image.read?${through('', 'is_a_build_of__service', 'sv', (sv) => onFleet('application', OWNS_ME, sv))}`,
    `resin.image__is_part_of__release.read?${through('', 'is_part_of__release', 'rl', (rl) => onFleet('belongs_to__application', OWNS_ME, rl))}`,
    // Its own variables; older agents seed their configuration with
    // `POST device_config_variable {device, name, value}` (dialect §4.1).
    `resin.device_config_variable.read?${through('', 'device', 'dv', (dv) => `${dv}${ME}`)}`,
    `resin.device_config_variable.create?${through('', 'device', 'dv', (dv) => `${dv}${ME}`)}`,
    `resin.device_environment_variable.read?${through('', 'device', 'dv', (dv) => `${dv}${ME}`)}`,
    // Its own tags (older supervisors read device_tag, dialect §4.1).
    `resin.device_tag.read?${through('', 'device', 'dv', (dv) => `${dv}${ME}`)}`,
  ],

  /**
   * A fleet's provisioning key (dialect §4.1): it registers devices (POST /device/register),
   * reads its fleet and the fleet's devices (the key exchange looks the device up).
   */
  'provisioning-api-key': [
    ...PUBLIC_REFERENCE,
    `resin.actor.read?id eq @__ACTOR_ID`,
    `resin.application.read?${ME}`,
    `resin.device.read?${onFleet('belongs_to__application', (a) => `${a}${ME}`)}`,
  ],

  /**
   * Provider administrators (spec 1 §6, spec 2 §6 balena_admin): read everything, private
   * fields and the mail outbox included; manage organizations and organization memberships.
   * Everything else is read-only to them (teams, team memberships, fleets, releases…): to
   * act inside a customer's fleet they log in as that user (PATCH /login_), which the
   * server logs. The server gives them the `default-user` permissions too, so in their own
   * organizations they act as any member does.
   */
  'platform-administrator': [
    ...Object.keys(model).flatMap((r) => [`resin.${r}.read`, `resin.${r}.read-private`]),
    'resin.organization.all',
    'resin.organization_membership.all',
    // Platform administrators register OAuth applications.
    'resin.oauth_application.all',
    'admin.home',
    'support.home',
  ],

  /**
   * Provider support staff (issue 19 item 2, roles/support.ts): customer fleet data only
   * under a support-access grant that has not expired (the fleet's or the device's), the
   * organizations' structure always (organizations, users with their private fields —
   * support answers by email —, memberships, teams, billing references). No writes: the
   * customer, or a platform administrator logged in as them, acts. Under a grant, a device's
   * diagnostics (spec 2 §6: support agents diagnose).
   */
  support_agent: [
    ...supportAgentReads(Object.keys(model)),
    'resin.user.read-private',
    `resin.device.access_diagnostics?${SUPPORT_GRANTED_READS.device}`,
    'support.home',
  ],
} satisfies Record<string, string[]>;

export type RoleName = keyof typeof ROLES;
