import { useQuery } from '@tanstack/react-query';
import { pineGet, pinePost, sdkRows } from '../../../lib/pine';
import { sdk } from '../../../lib/sdk';
import type { PendingWrite } from '../staging';
import { ALL_SERVICES, byNameAndService, type ServiceOption, type VariableRow } from '../variable-row';
import { getFleetVariables } from './fleet-variables';
import { deviceVariablesKey } from './keys';

export interface DeviceVariables {
  /** The device's own variables (overrides and device-only ones). */
  rows: VariableRow[];
  /** The fleet's variables, whose values the device gets unless it overrides them. */
  fleetRows: VariableRow[];
  /** The services installed on the device (service_install), for device service variables. */
  services: ServiceOption[];
}

export interface DeviceRef {
  id: number;
  uuid: string;
  fleetId: number;
}

/**
 * Spec 2 §7 Variables: device envVar and serviceVar of the device, the fleet's environment and
 * service variables, and the device's services (service_install filtered by device, selecting
 * id with installs__service expanded).
 */
export async function getDeviceVariables(device: DeviceRef): Promise<DeviceVariables> {
  const [fleet, env, svc, installs] = await Promise.all([
    getFleetVariables(device.fleetId),
    sdkRows('device_environment_variable', { $select: ['id', 'name', 'value'] }, (q) => sdk.models.device.envVar.getAllByDevice(device.uuid, q)),
    sdkRows(
      'device_service_environment_variable',
      {
        $select: ['id', 'name', 'value'],
        $expand: { service_install: { $select: ['id'], $expand: { installs__service: { $select: ['id', 'service_name'] } } } },
      },
      (q) => sdk.models.device.serviceVar.getAllByDevice(device.uuid, q as never),
    ),
    pineGet('service_install', {
      $select: ['id'],
      $filter: { device: device.id },
      $expand: { installs__service: { $select: ['id', 'service_name'] } },
    }),
  ]);
  const rows: VariableRow[] = [
    ...env.map((v) => ({ id: v.id, name: v.name, value: v.value, serviceId: ALL_SERVICES, serviceName: '' })),
    ...svc.map((v) => {
      const install = v.service_install[0];
      const service = install?.installs__service[0];
      return { id: v.id, name: v.name, value: v.value, serviceId: service?.id ?? -1, serviceName: service?.service_name ?? '', serviceInstallId: install?.id ?? -1 };
    }),
  ].sort(byNameAndService);
  const services = installs
    .flatMap((i) => (i.installs__service[0] ? [{ id: i.installs__service[0].id, name: i.installs__service[0].service_name, serviceInstallId: i.id }] : []))
    .sort((a, b) => a.name.localeCompare(b.name));
  return { rows, fleetRows: fleet.rows, services };
}

export function useDeviceVariables(device: DeviceRef) {
  return useQuery({ queryKey: deviceVariablesKey(device.id), queryFn: () => getDeviceVariables(device) });
}

/**
 * One staged write of the device page: a new variable or override is POSTed on the device (or
 * on its service install), an edit PATCHes {value} by id, a delete DELETEs by id (spec 2 §7).
 */
export async function writeDeviceVariable(deviceId: number, write: PendingWrite<VariableRow>): Promise<void> {
  if (write.kind === 'added') {
    const { name, value, serviceId, serviceInstallId } = write.value;
    if (serviceId === ALL_SERVICES) await pinePost('device_environment_variable', { device: deviceId, name, value });
    else await pinePost('device_service_environment_variable', { service_install: serviceInstallId ?? -1, name, value });
    return;
  }
  const row = write.kind === 'updated' ? write.value : write.original;
  const resource = row.serviceId === ALL_SERVICES ? 'device_environment_variable' : 'device_service_environment_variable';
  if (write.kind === 'updated') await sdk.pine.patch({ resource, id: row.id, body: { value: row.value } });
  else await sdk.pine.delete({ resource, id: row.id });
}
