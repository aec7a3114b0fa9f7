/**
 * The device actions both the devices feature (actions menu, batch actions, services card)
 * and the actions page (features/device-actions) use: the spec 2 §4 disabled reasons and the
 * 423 update-lock test; the call that sends an action is lib/device-action-api.ts. Moved here
 * from features/devices (features do not import each other); it re-exports them. No I/O.
 */

import { DEVICE_MENU_ACTION_NAMES, DEVICE_MENU_ACTIONS, supervisorActionProblem, type ActionProblem, type DeviceMenuAction } from '@flotilla/model';

/** The actions menu of spec 2 §2 that call the device (delete is a data-API write): the model's list. */
export const DEVICE_ACTIONS = DEVICE_MENU_ACTION_NAMES;
export type DeviceAction = DeviceMenuAction;

/** What decides whether an action is available, read from the device and its type. */
export interface ActionFacts {
  is_online: boolean;
  overall_status: string | null;
  /** The device type's contract says it has an LED (packages/model device-types `led`). */
  supportsBlink: boolean;
  /** The caller holds the action's permission (DEVICE_MENU_ACTIONS[action].permission). */
  allowed: boolean;
  /** `device.is_frozen` (billing: the server refuses actions on a frozen device, 402). */
  frozen?: boolean;
}

/** Message keys (devices.* bundle) of the spec's disabled reasons. */
export type DisabledReason = 'permission_denied' | 'device_frozen' | 'device_must_be_online' | ActionProblem;

/**
 * Why `action` is disabled for a device, or undefined when it is available (spec 2 §4, §6):
 * permission first, then a frozen device (issue 18), then 'device must be online', then the
 * action's own needs (the model's `supervisorActionProblem`, which the server enforces too).
 */
export function actionDisabledReason(action: DeviceAction, facts: ActionFacts): DisabledReason | undefined {
  if (!facts.allowed) return 'permission_denied';
  if (facts.frozen === true) return 'device_frozen';
  if (!facts.is_online) return 'device_must_be_online';
  return supervisorActionProblem(DEVICE_MENU_ACTIONS[action].supervisor, { overall_status: facts.overall_status, led: facts.supportsBlink });
}

/** Whether a device type's contract (`{data: {led}}`, as the seed stores it) has an LED. */
export function contractSupportsBlink(contract: unknown): boolean {
  if (typeof contract !== 'object' || contract === null) return false;
  const data = (contract as { data?: unknown }).data;
  return typeof data === 'object' && data !== null && (data as { led?: unknown }).led === true;
}

/** A 423 from an action: the device refused because of its update lock (dialect §2). */
export function isUpdateLocked(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { statusCode?: unknown }).statusCode === 423;
}

/** Mutation key of any action sent to a device: while one is in flight its controls wait (spec 2 §5). */
export const deviceActionKey = (uuid: string) => ['device', uuid, 'action'] as const;
