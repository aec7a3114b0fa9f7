import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { pineGet } from '../../../lib/pine';
import { LOCAL_MODE_VARIABLE, type MoveFleet } from '../device-settings-rules';
import { deviceKey, fleetDevicesKey } from './keys';

/** What the settings page needs beyond the shell's device: public URL, local mode, architecture. */
export interface DeviceSettingsFacts {
  is_web_accessible: boolean;
  /** RESIN_SUPERVISOR_LOCAL_MODE is '1' (spec 2 §5). */
  localMode: boolean;
  architecture: string;
}

const settingsKey = (uuid: string) => [...deviceKey(uuid), 'settings'] as const;

export async function getDeviceSettingsFacts(uuid: string): Promise<DeviceSettingsFacts | null> {
  const [d] = await pineGet('device', {
    $select: ['id', 'is_web_accessible'],
    $filter: { uuid },
    $expand: { is_of__device_type: { $select: ['id'], $expand: { is_of__cpu_architecture: { $select: ['slug'] } } } },
  });
  if (!d) return null;
  const vars = await pineGet('device_config_variable', { $select: ['value'], $filter: { device: d.id, name: LOCAL_MODE_VARIABLE } });
  return {
    is_web_accessible: d.is_web_accessible,
    localMode: vars[0]?.value === '1',
    architecture: d.is_of__device_type[0]?.is_of__cpu_architecture[0]?.slug ?? '',
  };
}

export function useDeviceSettingsFacts(uuid: string) {
  return useQuery({ queryKey: settingsKey(uuid), queryFn: () => getDeviceSettingsFacts(uuid) });
}

/** The fleets the caller reads (class fleet), with their default type's CPU architecture. */
export async function getMoveFleets(): Promise<MoveFleet[]> {
  const rows = await pineGet('application', {
    $select: ['id', 'app_name'],
    $filter: { is_of__class: 'fleet' },
    $expand: { is_for__device_type: { $select: ['id'], $expand: { is_of__cpu_architecture: { $select: ['slug'] } } } },
    $orderby: { app_name: 'asc' },
  });
  return rows.map((r) => ({ id: r.id, app_name: r.app_name, architecture: r.is_for__device_type[0]?.is_of__cpu_architecture[0]?.slug ?? '' }));
}

export function useMoveFleets(enabled: boolean) {
  return useQuery({ queryKey: ['device-settings', 'move-fleets'], queryFn: getMoveFleets, enabled });
}

/** The fleet's successful releases, newest first (spec 2 §7 release lists, page size 50). */
export async function getPinnableReleases(fleetId: number): Promise<{ id: number; commit: string; raw_version: string }[]> {
  return pineGet('release', {
    $select: ['id', 'commit', 'raw_version'],
    $filter: { belongs_to__application: fleetId, status: 'success' },
    $orderby: [{ created_at: 'desc' }, { id: 'desc' }],
    $top: 50,
  });
}

export function usePinnableReleases(fleetId: number) {
  // Spec 2 §9: release lists refetch every 6 s.
  return useQuery({ queryKey: [...fleetDevicesKey(fleetId), 'pinnable-releases'], queryFn: () => getPinnableReleases(fleetId), refetchInterval: 6_000 });
}

/** Runs one settings write, then refreshes the device and its settings. */
export function useDeviceSettingsChange(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (write: () => Promise<unknown>) => write(),
    onSettled: () => queryClient.invalidateQueries({ queryKey: deviceKey(uuid) }),
  });
}
