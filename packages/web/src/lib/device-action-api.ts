/**
 * The one call that sends an action to a device (dialect §2), shared by the devices feature
 * and the actions page; moved here from features/devices, which re-exports it.
 */

import { DEVICE_MENU_ACTIONS } from '@flotilla/model';
import type { DeviceAction } from './device-action-rules';
import { sdk } from './sdk';

export interface ActionTarget {
  id: number;
  uuid: string;
  /** The device's fleet: `restart` and `purge` name the application (dialect §2). */
  appId: number;
}

/**
 * `POST /supervisor/v1/{action}` with `{deviceId, appId, data}` (dialect §2). The server
 * answers balena's 404 'No online device(s) found' without a cloud link and 423 when the
 * device's update lock refused; `force` overrides the lock.
 */
export async function runDeviceAction(target: ActionTarget, action: DeviceAction, force = false): Promise<void> {
  const data: Record<string, unknown> = { appId: target.appId };
  if (force) data.force = true;
  await sdk.request.send({
    method: 'POST',
    baseUrl: window.location.origin,
    url: `/supervisor/v1/${DEVICE_MENU_ACTIONS[action].supervisor}`,
    body: { deviceId: target.id, appId: target.appId, data },
  });
}
