/** Query keys of the devices feature (fleet tables and device pages). */
export const fleetDevicesKey = (fleetId: number) => ['fleet', fleetId, 'devices'] as const;
export const deviceKey = (uuid: string) => ['device', uuid] as const;

/** Spec 2 §9: the default polling interval (15 s) for the device table. */
export const DEVICE_TABLE_REFETCH_MS = 15_000;
/** Spec 2 §9: device pages poll every 60 s. */
export const DEVICE_REFETCH_MS = 60_000;
/**
 * Spec 2 §9 leaves the device table's page size open ("a shared constant"): 50 by default,
 * with larger pages on request. Pages come from the server ($top/$skip); the larger ones
 * render only the rows in view (DataTable's virtualisation).
 */
export const DEVICE_PAGE_SIZE = 50;
export const DEVICE_PAGE_SIZES = [50, 100, 250, 500] as const;

export { deviceActionKey } from '../../../lib/device-action-rules';
