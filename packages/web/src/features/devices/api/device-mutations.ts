import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { runDeviceAction, type ActionTarget } from '../../../lib/device-action-api';
import type { DeviceAction } from '../../../lib/device-action-rules';
import { deviceKey, fleetDevicesKey } from './keys';

export { runDeviceAction, type ActionTarget } from '../../../lib/device-action-api';

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
