import { useQuery } from '@tanstack/react-query';
import { pineCount, pineGet, pinePost, sdkRows } from '../../../lib/pine';
import { sdk } from '../../../lib/sdk';
import { ALL_SERVICES, byNameAndService, type ServiceOption, type VariableRow } from '../variable-row';
import type { PendingWrite } from '../staging';
import { fleetVariablesKey } from './keys';

export interface FleetVariables {
  rows: VariableRow[];
  services: ServiceOption[];
}

/**
 * Spec 2 §7 Variables: the fleet's environment variables (application envVar) and its service
 * variables (service var), in one list, plus its services (service getAllByApplication).
 */
export async function getFleetVariables(fleetId: number): Promise<FleetVariables> {
  const [env, svc, services] = await Promise.all([
    sdkRows('application_environment_variable', { $select: ['id', 'name', 'value'] }, (q) => sdk.models.application.envVar.getAllByApplication(fleetId, q)),
    sdkRows(
      'service_environment_variable',
      { $select: ['id', 'name', 'value'], $expand: { service: { $select: ['id', 'service_name'] } } },
      (q) => sdk.models.service.var.getAllByApplication(fleetId, q as never),
    ),
    sdkRows('service', { $select: ['id', 'service_name'] }, (q) => sdk.models.service.getAllByApplication(fleetId, q)),
  ]);
  const rows: VariableRow[] = [
    ...env.map((v) => ({ id: v.id, name: v.name, value: v.value, serviceId: ALL_SERVICES, serviceName: '' })),
    ...svc.map((v) => ({ id: v.id, name: v.name, value: v.value, serviceId: v.service[0]?.id ?? -1, serviceName: v.service[0]?.service_name ?? '' })),
  ].sort(byNameAndService);
  return { rows, services: services.map((s) => ({ id: s.id, name: s.service_name })).sort((a, b) => a.name.localeCompare(b.name)) };
}

export function useFleetVariables(fleetId: number) {
  return useQuery({ queryKey: fleetVariablesKey(fleetId), queryFn: () => getFleetVariables(fleetId) });
}

/**
 * One staged write of the fleet page: a new variable is POSTed (a name already taken answers
 * 409, not an upsert that would overwrite it), an edit PATCHes {value} by id, a delete
 * DELETEs by id (spec 2 §7).
 */
export async function writeFleetVariable(fleetId: number, write: PendingWrite<VariableRow>): Promise<void> {
  if (write.kind === 'added') {
    const { name, value, serviceId } = write.value;
    if (serviceId === ALL_SERVICES) await pinePost('application_environment_variable', { application: fleetId, name, value });
    else await pinePost('service_environment_variable', { service: serviceId, name, value });
    return;
  }
  const row = write.kind === 'updated' ? write.value : write.original;
  const resource = row.serviceId === ALL_SERVICES ? 'application_environment_variable' : 'service_environment_variable';
  if (write.kind === 'updated') await sdk.pine.patch({ resource, id: row.id, body: { value: row.value } });
  else await sdk.pine.delete({ resource, id: row.id });
}

/** A device's override of a fleet variable, as the overrides dialog lists it. */
export interface DeviceOverride {
  id: number;
  value: string;
  deviceUuid: string;
  deviceName: string;
}

/**
 * Spec 2 §2, §9: the devices of the fleet that override a fleet variable (device env var of
 * the same name; for a service variable, device service var of that service and name), one
 * page of `top` at a time, with the total.
 */
export async function getOverrides(
  fleetId: number,
  variable: { name: string; serviceId: number },
  page: number,
  top: number,
): Promise<{ rows: DeviceOverride[]; total: number }> {
  const deviceSelect = { $select: ['uuid', 'device_name'] } as const;
  if (variable.serviceId === ALL_SERVICES) {
    const $filter = { name: variable.name, device: { $any: { $alias: 'd', $expr: { d: { belongs_to__application: fleetId } } } } };
    const [rows, total] = await Promise.all([
      pineGet('device_environment_variable', {
        $select: ['id', 'value'],
        $expand: { device: deviceSelect },
        $filter,
        $orderby: { id: 'asc' },
        $top: top,
        $skip: page * top,
      }),
      pineCount('device_environment_variable', { $filter }),
    ]);
    return { rows: rows.map((r) => ({ id: r.id, value: r.value, deviceUuid: r.device[0]?.uuid ?? '', deviceName: r.device[0]?.device_name ?? '' })), total };
  }
  const $filter = {
    name: variable.name,
    service_install: { $any: { $alias: 'si', $expr: { si: { installs__service: variable.serviceId } } } },
  };
  const [rows, total] = await Promise.all([
    pineGet('device_service_environment_variable', {
      $select: ['id', 'value'],
      $expand: { service_install: { $select: ['id'], $expand: { device: deviceSelect } } },
      $filter,
      $orderby: { id: 'asc' },
      $top: top,
      $skip: page * top,
    }),
    pineCount('device_service_environment_variable', { $filter }),
  ]);
  return {
    rows: rows.map((r) => {
      const device = r.service_install[0]?.device[0];
      return { id: r.id, value: r.value, deviceUuid: device?.uuid ?? '', deviceName: device?.device_name ?? '' };
    }),
    total,
  };
}

/** Deletes the selected overrides (DELETE with $filter id in list); never called with none. */
export async function deleteOverrides(serviceId: number, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) throw new Error('No selected');
  const resource = serviceId === ALL_SERVICES ? 'device_environment_variable' : 'device_service_environment_variable';
  await sdk.pine.delete({ resource, options: { $filter: { id: { $in: [...ids] } } } });
}
