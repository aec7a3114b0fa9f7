import { permissionImplies } from '../permissions.js';
import type { DeviceOperation } from '../types.js';
import { FLEET_ROLE_LEVELS, fleetRoleLevel, type FleetRole } from './fleet.js';

/**
 * What each fleet role adds to the one below it (spec 2 §6 "Fleet roles" and "Permission
 * names used in this area"). Levels accumulate: a developer holds everything an operator
 * and an observer hold. The dashboard asks `fleetRoleCan(role, 'resin.device.update')` to
 * enable a control; the data API enforces the same rights through the table rules in
 * `roles.ts`.
 */
export const FLEET_ROLE_ADDS: Record<FleetRole, readonly string[]> = {
  member: [],
  observer: ['resin.application.read', 'resin.device.read', 'resin.release.read'],
  operator: [
    'resin.api_key.read',
    'resin.application.deactivate-device',
    'resin.device.create',
    'resin.device.delete',
    'resin.device.update',
    'resin.device.access_diagnostics',
    'resin.device.ssh',
    'resin.device.ssh-host',
    'resin.device_config_variable.all',
    'resin.device_environment_variable.all',
    'resin.device_service_environment_variable.all',
    'resin.device_tag.all',
  ],
  developer: [
    'resin.application.push',
    'resin.application.update',
    'resin.application_config_variable.all',
    'resin.application_environment_variable.all',
    'resin.application_tag.all',
    'resin.device_log.delete',
    'resin.release.all',
    'resin.release_asset.all',
    'resin.release_tag.all',
    'resin.service_environment_variable.all',
  ],
  administrator: [
    'resin.application.all',
    'resin.user_application_membership.all',
    'resin.organization.access_billing',
    'resin.organization_membership.all',
    'resin.organization_membership_tag.all',
    'resin.team.all',
    'resin.team_application_access.all',
    'resin.team_membership.all',
  ],
};

/** Platform staff on a fleet (spec 2 §6): support agents diagnose and open a shell only. */
export const STAFF_FLEET_PERMISSIONS = {
  support_agent: ['resin.device.access_diagnostics', 'resin.device.ssh'],
  balena_admin: [
    'resin.device.access_diagnostics',
    'resin.device.ssh',
    'resin.organization.all',
    'resin.organization_membership.all',
  ],
} as const satisfies Record<string, readonly string[]>;

/** Every permission a fleet role holds, its own additions and those of the levels below. */
export function fleetRolePermissions(role: FleetRole | undefined): string[] {
  if (!role) return [];
  return FLEET_ROLE_LEVELS.filter((r) => fleetRoleLevel(r) <= fleetRoleLevel(role)).flatMap((r) => FLEET_ROLE_ADDS[r]);
}

/** Whether `role` grants `permission` (directly or through `a.b.all`). */
export function fleetRoleCan(role: FleetRole | undefined, permission: string): boolean {
  return fleetRolePermissions(role).some((held) => permissionImplies(held, permission));
}

/**
 * The fleet access roles an organization's plan lets one grant (spec 2 §6: operator is paid
 * only). `plan` is the organization's billing plan code; `undefined` means the installation
 * has no billing for it (self-hosted without plans), which limits nothing.
 */
export function selectableFleetRoles(plan: string | undefined): { role: FleetRole; selectable: boolean }[] {
  return FLEET_ROLE_LEVELS.filter((r) => r !== 'member').map((role) => ({
    role,
    selectable: !(role === 'operator' && plan === 'free'),
  }));
}

/**
 * The device operations that are rights of their own (spec 2 §6), each with the spec's
 * permission name: a web terminal in a container (`ssh`) or on the host OS (`ssh-host`), the
 * diagnostics page (`access_diagnostics`), clearing the device's logs (`delete_logs`, spec
 * name `resin.device_log.delete`). The data API holds them as `resin.device.<operation>`
 * rules on the device row (roles.ts), at the lowest fleet role whose list names them here.
 */
export const DEVICE_OPERATIONS: Readonly<Record<DeviceOperation, string>> = {
  ssh: 'resin.device.ssh',
  'ssh-host': 'resin.device.ssh-host',
  access_diagnostics: 'resin.device.access_diagnostics',
  delete_logs: 'resin.device_log.delete',
};

/** The lowest fleet role that grants `operation`. */
export function deviceOperationRole(operation: DeviceOperation): FleetRole {
  const role = FLEET_ROLE_LEVELS.find((r) => fleetRoleCan(r, DEVICE_OPERATIONS[operation]));
  if (!role) throw new Error(`No fleet role grants ${DEVICE_OPERATIONS[operation]}`);
  return role;
}
