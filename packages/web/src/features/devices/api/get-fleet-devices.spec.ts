import { getSdk } from 'balena-sdk';
import { describe, expect, it, vi } from 'vitest';

// The module reads `window.location.origin` for its SDK; give it one and the real compiler.
vi.mock('../../../lib/sdk', () => ({ sdk: getSdk({ apiUrl: 'http://flotilla.test', dataDirectory: false }) }));
const { deviceTableFilter } = await import('./get-fleet-devices');
const { sdk } = await import('../../../lib/sdk');

const url = (filters: Parameters<typeof deviceTableFilter>[1]) =>
  decodeURIComponent(sdk.pine.compile({ resource: 'device', options: { $filter: deviceTableFilter(7, filters) } } as Parameters<typeof sdk.pine.compile>[0]));

describe('deviceTableFilter', () => {
  it('is only the fleet without filters (a lone $and operand does not compile)', () => {
    expect(url({})).toBe('device?$filter=belongs_to__application eq 7');
  });
  it('adds status, device type, running release and a case-insensitive name or uuid search', () => {
    expect(url({ status: 'updating', deviceTypeId: 3, releaseId: 9, search: ' Pi ' })).toBe(
      "device?$filter=belongs_to__application eq 7 and overall_status eq 'updating' and is_of__device_type eq 3 and is_running__release eq 9 and (contains(tolower(device_name),'pi') or contains(tolower(uuid),'pi'))",
    );
  });
});
