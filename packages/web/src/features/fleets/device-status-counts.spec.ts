import { describe, expect, it } from 'vitest';
import { countDeviceStatuses } from './device-status-counts';

describe('device counts per overall status', () => {
  it('counts each status and the total, leaving out statuses with no devices', () => {
    const counts = countDeviceStatuses([
      { overall_status: 'operational' },
      { overall_status: 'disconnected' },
      { overall_status: 'operational' },
    ]);
    expect(counts.total).toBe(3);
    expect(counts.statuses).toEqual([
      { status: 'operational', count: 2 },
      { status: 'disconnected', count: 1 },
    ]);
  });

  it('gives zero devices and no statuses for an empty fleet', () => {
    expect(countDeviceStatuses([])).toEqual({ total: 0, statuses: [] });
  });
});
