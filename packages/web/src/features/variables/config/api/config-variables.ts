import { useQuery } from '@tanstack/react-query';
import { sdk } from '../../../../lib/sdk';
import { sdkRows } from '../../../../lib/pine';
import type { SavedConfigVariable, SchemaProperty } from '../config-rules';

/**
 * The configuration pages' data (spec 2 §7 Config): the device type's schema from
 * `GET /config/vars`, the fleet's and the device's configuration variables
 * (`configVar.getAllByApplication` / `getAllByDevice`) and the devices that override a fleet
 * variable. Writes are POST/PATCH/DELETE of `application_config_variable` and
 * `device_config_variable` by id (see `config-writes.ts`).
 */

export type ConfigLevel = 'fleet' | 'device';

export const configKeys = {
  schema: (slug: string) => ['config-vars', slug] as const,
  fleet: (fleetId: number) => ['fleet', fleetId, 'config-variables'] as const,
  device: (uuid: string) => ['device', uuid, 'config-variables'] as const,
  overrides: (fleetId: number, name: string) => ['fleet', fleetId, 'config-variables', 'overrides', name] as const,
};

/** Spec 2 §9: the device-types query refreshes every 60 s; a schema changes only with the contracts. */
const SCHEMA_STALE_MS = 60_000;
/** Spec 2 §9: fleet and device pages poll every 60 s. */
const PAGE_REFETCH_MS = 60_000;

interface ConfigVarsBody {
  configVarSchema?: { properties?: Record<string, SchemaProperty> };
}

export async function getConfigSchema(slug: string): Promise<Record<string, SchemaProperty>> {
  const body = (await sdk.models.config.getConfigVarSchema(slug)) as ConfigVarsBody;
  return body.configVarSchema?.properties ?? {};
}

export function useConfigSchema(slug: string | undefined) {
  return useQuery({
    queryKey: configKeys.schema(slug ?? ''),
    queryFn: () => getConfigSchema(slug ?? ''),
    enabled: slug !== undefined,
    staleTime: SCHEMA_STALE_MS,
  });
}

const VARIABLE_QUERY = { $select: ['id', 'name', 'value'], $orderby: { name: 'asc' } } as const;

export async function getFleetConfigVariables(fleetId: number): Promise<SavedConfigVariable[]> {
  return sdkRows('application_config_variable', VARIABLE_QUERY, (q) => sdk.models.application.configVar.getAllByApplication(fleetId, q as never));
}

export async function getDeviceConfigVariables(uuid: string): Promise<SavedConfigVariable[]> {
  return sdkRows('device_config_variable', VARIABLE_QUERY, (q) => sdk.models.device.configVar.getAllByDevice(uuid, q as never));
}

export function useFleetConfigVariables(fleetId: number) {
  return useQuery({ queryKey: configKeys.fleet(fleetId), queryFn: () => getFleetConfigVariables(fleetId), refetchInterval: PAGE_REFETCH_MS });
}

export function useDeviceConfigVariables(uuid: string) {
  return useQuery({ queryKey: configKeys.device(uuid), queryFn: () => getDeviceConfigVariables(uuid), refetchInterval: PAGE_REFETCH_MS });
}

/** A device's override of a fleet configuration variable (the overrides dialog's row). */
export interface ConfigOverride {
  id: number;
  value: string;
  device: { id: number; uuid: string; device_name: string };
}

/** The devices of the fleet whose own configuration variable `name` overrides the fleet's. */
export async function getConfigOverrides(fleetId: number, name: string): Promise<ConfigOverride[]> {
  const rows = await sdkRows(
    'device_config_variable',
    { $select: ['id', 'value'], $filter: { name }, $expand: { device: { $select: ['id', 'uuid', 'device_name'] } }, $orderby: { id: 'asc' } } as const,
    (q) => sdk.models.device.configVar.getAllByApplication(fleetId, q as never),
  );
  return rows.flatMap((r) => (r.device[0] ? [{ id: r.id, value: r.value, device: r.device[0] }] : []));
}

export function useConfigOverrides(fleetId: number, name: string) {
  return useQuery({ queryKey: configKeys.overrides(fleetId, name), queryFn: () => getConfigOverrides(fleetId, name) });
}
