import { describe, expect, it } from 'vitest';
import { deriveReportedFields } from './device-reported.js';

describe('deriveReportedFields', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const derived = (body: Record<string, unknown>) => {
    deriveReportedFields(body, now);
    return body;
  };

  it('makes a write of is_online a connectivity event unless the write names one', () => {
    expect(derived({ is_online: true })).toEqual({ is_online: true, last_connectivity_event: now.toISOString() });
    expect(derived({ is_online: false, last_connectivity_event: null })).toEqual({ is_online: false, last_connectivity_event: null });
    expect(derived({ device_name: 'x' })).toEqual({ device_name: 'x' });
  });

  it('sets is_online from is_connected_to_vpn unless the write names it', () => {
    expect(derived({ is_connected_to_vpn: true })).toEqual({ is_connected_to_vpn: true, is_online: true, last_connectivity_event: now.toISOString() });
    expect(derived({ is_connected_to_vpn: true, is_online: false })).toMatchObject({ is_connected_to_vpn: true, is_online: false });
  });

  it('reads os_variant from os_version unless the write names it', () => {
    expect(derived({ os_version: 'balenaOS 2.88.4 (dev)' })).toEqual({ os_version: 'balenaOS 2.88.4 (dev)', os_variant: 'dev' });
    expect(derived({ os_version: 'balenaOS 2.88.4' })).toEqual({ os_version: 'balenaOS 2.88.4', os_variant: null });
    expect(derived({ os_version: 'balenaOS 2.88.4 (dev)', os_variant: 'prod' })).toEqual({ os_version: 'balenaOS 2.88.4 (dev)', os_variant: 'prod' });
  });
});
