import { DEVICE_OVERALL_STATUSES, type DeviceOverallStatus } from '@flotilla/model';

export interface DeviceStatusCounts {
  total: number;
  /** Non-zero counts in the vocabulary's order (spec 2 §4). */
  statuses: { status: DeviceOverallStatus; count: number }[];
}

/** Counts an application's devices per overall status; unknown values count in the total only. */
export function countDeviceStatuses(devices: readonly { overall_status?: string | null }[]): DeviceStatusCounts {
  const counts = new Map<string, number>();
  for (const d of devices) {
    if (d.overall_status) counts.set(d.overall_status, (counts.get(d.overall_status) ?? 0) + 1);
  }
  return {
    total: devices.length,
    statuses: DEVICE_OVERALL_STATUSES.map((status) => ({ status, count: counts.get(status) ?? 0 })).filter((s) => s.count > 0),
  };
}
