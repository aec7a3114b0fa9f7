/**
 * Pure rules of the actions page (spec 2 §2 actions menu, §4 device action availability, §5
 * destructive confirmations, §6 permissions). The menu's own reasons (lib/device-actions) plus
 * what only the page shows: delete, and the actions local mode takes away.
 */

import { DEVICE_MENU_ACTIONS, type DeviceMenuActionDef } from '@flotilla/model';
import { actionDisabledReason, DEVICE_ACTIONS, type ActionFacts, type DeviceAction, type DisabledReason } from '../../lib/device-action-rules';

/** The page's actions in the menu's order (spec 2 §2): the device actions, then delete. */
export type PageAction = DeviceAction | 'delete';
export const PAGE_ACTIONS: readonly PageAction[] = [...DEVICE_ACTIONS, 'delete'];

/** Spec 2 §6: delete needs resin.device.delete; the others name their right in the model. */
export const DELETE_PERMISSION = 'resin.device.delete';
export function permissionOf(action: PageAction): string {
  return action === 'delete' ? DELETE_PERMISSION : DEVICE_MENU_ACTIONS[action].permission;
}

/**
 * Spec 2 §4 'Actions unavailable in local mode say "not available in local mode"'. In local
 * mode the device runs what a developer pushes to it over the local network, not its fleet's
 * release: restarting the fleet's services or purging their data does not apply. (Our reading;
 * docs/decisions.md.)
 */
export const LOCAL_MODE_BLOCKED: ReadonlySet<PageAction> = new Set<PageAction>(['restart', 'purge']);

export type PageDisabledReason = DisabledReason | 'not_available_in_local_mode';

export interface PageActionFacts extends Omit<ActionFacts, 'allowed'> {
  localMode: boolean;
  can: (permission: string) => boolean;
}

/**
 * Why `action` is disabled, or undefined: the menu's order (permission, online, the action's
 * own needs), with local mode after being online. Delete is a data-API write: only its right.
 */
export function pageActionReason(action: PageAction, facts: PageActionFacts): PageDisabledReason | undefined {
  const allowed = facts.can(permissionOf(action));
  if (action === 'delete') return allowed ? undefined : 'permission_denied';
  if (allowed && facts.is_online && facts.localMode && LOCAL_MODE_BLOCKED.has(action)) return 'not_available_in_local_mode';
  return actionDisabledReason(action, { ...facts, allowed });
}

/** Spec 2 §5: reboot and shutdown ask yes/no, purge and delete ask for the device's name. */
export function confirmationOf(action: PageAction): DeviceMenuActionDef['confirm'] {
  return action === 'delete' ? 'type-name' : (DEVICE_MENU_ACTIONS[action] as DeviceMenuActionDef).confirm;
}
