import { DEVICE_MENU_ACTIONS } from '@flotilla/model';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import type { DeviceAction } from '../device-rules';
import { deviceKey, fleetDevicesKey } from './keys';

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

export function useDeviceAction() {
  return useMutation({
    mutationFn: ({ target, action, force }: { target: ActionTarget; action: DeviceAction; force?: boolean }) => runDeviceAction(target, action, force),
  });
}

/** Device model calls rename(id, name) and setNote(id, note) (spec 2 §7). */
export function useRenameDevice(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => sdk.models.device.rename(uuid, name),
    onSettled: () => queryClient.invalidateQueries({ queryKey: deviceKey(uuid) }),
  });
}

export function useSetDeviceNote(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (note: string) => sdk.models.device.setNote(uuid, note),
    onSettled: () => queryClient.invalidateQueries({ queryKey: deviceKey(uuid) }),
  });
}

/** remove(ids): one DELETE per device, so a batch can tell how many failed (spec 2 §4). */
export function removeDevice(id: number): Promise<void> {
  return sdk.models.device.remove(id);
}

export function useInvalidateFleetDevices(fleetId: number) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: fleetDevicesKey(fleetId) });
}
