import { ALL_SERVICES, type VariableRow } from '../variable-row';
import type { HistoryTarget } from './history-api';

/** The history of a fleet's environment variable (all services) or service variable. */
export function fleetVariableHistory(fleetId: number, row: Pick<VariableRow, 'name' | 'serviceId'>): HistoryTarget {
  return row.serviceId === ALL_SERVICES
    ? { fleetId, kind: 'application_environment_variable', name: row.name }
    : { fleetId, kind: 'service_environment_variable', name: row.name, serviceId: row.serviceId };
}

/** The history of a device's environment variable (all services) or device service variable. */
export function deviceVariableHistory(fleetId: number, deviceId: number, row: Pick<VariableRow, 'name' | 'serviceId'>): HistoryTarget {
  return row.serviceId === ALL_SERVICES
    ? { fleetId, kind: 'device_environment_variable', name: row.name, deviceId }
    : { fleetId, kind: 'device_service_environment_variable', name: row.name, deviceId, serviceId: row.serviceId };
}
