/**
 * Device actions, declared once (spec 2 §2 actions menu, §4 action rules, §6 permissions;
 * dialect §4.6 supervisor API). The server's supervisor proxy, the cloud link, the agent and
 * the dashboard's menus all read this file; docs/adding-a-device-action.md walks through it.
 */

/**
 * What the supervisor API answers over the cloud link (dialect §4.6): the frame's `action`.
 * `ping` and `device` (the supervisor's `GET /v1/device` state) only read; `health-checks`
 * and `diagnose` only read too and are sent by the actions service, never by the proxy, as is
 * `os-update` (a host OS update, model device-type/os-updates.ts).
 */
export const SUPERVISOR_ACTIONS = [
  'reboot',
  'shutdown',
  'restart',
  'purge',
  'blink',
  'update',
  'restart-service',
  'start-service',
  'stop-service',
  'ping',
  'device',
  // Long-running actions of the actions service (issue 15, features/device-diagnostics); not in the /supervisor proxy.
  'health-checks',
  'diagnose',
  // The host OS update (issue 17, features/os-update): sent by the actions service's `resinhup`, not the proxy.
  'os-update',
] as const;
export type SupervisorAction = (typeof SUPERVISOR_ACTIONS)[number];

/** Actions the device's update lock holds back unless forced (balena's `SupervisorLocked`, 423): everything that interrupts services. */
export const UPDATE_LOCKED_ACTIONS: ReadonlySet<SupervisorAction> = new Set<SupervisorAction>([
  'reboot',
  'shutdown',
  'restart',
  'purge',
  'restart-service',
  'stop-service',
  'start-service',
]);

/** What a supervisor action needs from the device besides a cloud link and the caller's right. */
export interface SupervisorActionNeeds {
  /** The device type's contract says it has an LED (identify). */
  led?: true;
  /** The device has left configuring and post-provisioning (spec 2 §4). */
  provisioned?: true;
  /**
   * Spec 2 §4 'Actions unavailable in local mode say "not available in local mode"': a device
   * in local mode runs what a developer pushes to it, not its fleet's release, so restarting
   * or purging the fleet's services does not apply (our reading, docs/decisions.md).
   */
  notInLocalMode?: true;
}

export const SUPERVISOR_ACTION_NEEDS: Readonly<Partial<Record<SupervisorAction, SupervisorActionNeeds>>> = {
  blink: { led: true },
  reboot: { provisioned: true },
  shutdown: { provisioned: true },
  purge: { provisioned: true, notInLocalMode: true },
  restart: { notInLocalMode: true },
};

/** One entry of the dashboard's device actions menu (spec 2 §2), and the supervisor action it sends. */
export interface DeviceMenuActionDef {
  supervisor: SupervisorAction;
  /** Spec 2 §6: the right that enables it. */
  permission: string;
  /** Spec 2 §5: a yes/no confirmation, or typing the device's name. */
  confirm?: 'yes-no' | 'type-name';
}

export const DEVICE_MENU_ACTIONS = {
  identify: { supervisor: 'blink', permission: 'resin.device.update' },
  restart: { supervisor: 'restart', permission: 'resin.device_config_variable.all' },
  reboot: { supervisor: 'reboot', permission: 'resin.device.update', confirm: 'yes-no' },
  shutdown: { supervisor: 'shutdown', permission: 'resin.device.update', confirm: 'yes-no' },
  purge: { supervisor: 'purge', permission: 'resin.device.update', confirm: 'type-name' },
} as const satisfies Record<string, DeviceMenuActionDef>;
export type DeviceMenuAction = keyof typeof DEVICE_MENU_ACTIONS;
/** The menu's order. */
export const DEVICE_MENU_ACTION_NAMES = Object.keys(DEVICE_MENU_ACTIONS) as DeviceMenuAction[];

/** A device is fully provisioned once it has left configuring and post-provisioning. */
export function isFullyProvisioned(overallStatus: string | null): boolean {
  return overallStatus !== null && overallStatus !== 'configuring' && overallStatus !== 'post-provisioning';
}

/** The facts of one device an action's needs are checked against. */
export interface ActionDeviceFacts {
  overall_status: string | null;
  /** The device type's contract has an LED. */
  led: boolean;
  /** The device is in local mode (a local-mode config variable of '1'); unknown counts as not. */
  local_mode?: boolean;
}

/** Keys (DEVICE_RULE_MESSAGES) of the reasons a device cannot take an action. */
export type ActionProblem = 'no_blink_support' | 'not_fully_provisioned' | 'not_available_in_local_mode';

/** Why the device cannot take `action` (its needs unmet), or undefined; the server refuses with this, the dashboard disables with it. */
export function supervisorActionProblem(action: SupervisorAction, device: ActionDeviceFacts): ActionProblem | undefined {
  const needs = SUPERVISOR_ACTION_NEEDS[action];
  if (needs?.led && !device.led) return 'no_blink_support';
  if (needs?.provisioned && !isFullyProvisioned(device.overall_status)) return 'not_fully_provisioned';
  if (needs?.notInLocalMode && device.local_mode === true) return 'not_available_in_local_mode';
  return undefined;
}
