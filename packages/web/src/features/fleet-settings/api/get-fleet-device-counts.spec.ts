import { getSdk } from 'balena-sdk';
import { describe, expect, it, vi } from 'vitest';

vi.mock('../../../lib/sdk', () => ({ sdk: getSdk({ apiUrl: 'http://flotilla.test', dataDirectory: false }) }));
const { getFleetDeviceCounts } = await import('./get-fleet-device-counts');
const { sdk } = await import('../../../lib/sdk');

describe('getFleetDeviceCounts', () => {
  it('asks the server to count (exact beyond the largest page of rows), never reads the devices themselves', async () => {
    // What the data API would answer for a fleet of 25,000 devices: a number per $count.
    const urls: string[] = [];
    vi.spyOn(sdk.pine, 'get').mockImplementation((async (params: Parameters<typeof sdk.pine.compile>[0]) => {
      const url = decodeURIComponent(sdk.pine.compile(params));
      urls.push(url);
      if (!url.includes('$count')) return [];
      return url.includes("overall_status eq 'operational'") ? 24_000 : url.includes('overall_status') ? 1_000 / 6 : 25_000;
    }) as typeof sdk.pine.get);
    const counts = await getFleetDeviceCounts(7);
    expect(counts.total).toBe(25_000);
    expect(counts.byStatus.operational).toBe(24_000);
    expect(Object.keys(counts.byStatus)).toHaveLength(7);
    expect(urls.every((u) => u.includes('$count') && u.includes('belongs_to__application eq 7'))).toBe(true);
  });
});
