import { describe, expect, it } from 'vitest';
import { deviceVariableHistory, fleetVariableHistory } from './history-targets';

describe('history targets', () => {
  it('a fleet row is an environment variable for all services (0), else a service variable of its service', () => {
    expect(fleetVariableHistory(7, { name: 'A', serviceId: 0 })).toEqual({ fleetId: 7, kind: 'application_environment_variable', name: 'A' });
    expect(fleetVariableHistory(7, { name: 'A', serviceId: 3 })).toEqual({ fleetId: 7, kind: 'service_environment_variable', name: 'A', serviceId: 3 });
  });
  it('a device row names the device, and its service for a device service variable', () => {
    expect(deviceVariableHistory(7, 9, { name: 'A', serviceId: 0 })).toEqual({ fleetId: 7, kind: 'device_environment_variable', name: 'A', deviceId: 9 });
    expect(deviceVariableHistory(7, 9, { name: 'A', serviceId: 3 })).toEqual({
      fleetId: 7,
      kind: 'device_service_environment_variable',
      name: 'A',
      deviceId: 9,
      serviceId: 3,
    });
  });
});
