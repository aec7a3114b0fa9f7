import { DEVICE_OVERALL_STATUSES, type DeviceOverallStatus } from '@flotilla/model';
import { pineCount } from './pine';

export type StatusCounts = Record<DeviceOverallStatus, number>;

/**
 * A fleet's device count per overall status, each a server-side `$count` (spec 2 §2): the
 * device table's filter chips and the fleet's settings (deleting a fleet) both read it.
 */
export async function getDeviceStatusCounts(fleetId: number): Promise<StatusCounts> {
  const counts = await Promise.all(
    DEVICE_OVERALL_STATUSES.map((status) => pineCount('device', { $filter: { belongs_to__application: fleetId, overall_status: status } })),
  );
  return Object.fromEntries(DEVICE_OVERALL_STATUSES.map((s, i) => [s, counts[i] ?? 0])) as StatusCounts;
}
