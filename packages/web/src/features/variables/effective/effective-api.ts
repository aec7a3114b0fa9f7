import { useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

/** Where a device's variable value comes from (contract A, `@flotilla/model` variables/effective). */
export type VariableLevel = 'image' | 'fleet' | 'fleet-service' | 'device' | 'device-service' | 'fleet-config' | 'device-config' | 'schema-default';

export interface EffectiveVariable {
  name: string;
  value: string;
  level: VariableLevel;
  /** The lower levels it hides, nearest first. */
  overrides: { level: VariableLevel; value: string }[];
}

/** `GET /device/{uuid}/effective-variables`. */
export interface EffectiveVariables {
  device: { id: number; uuid: string; device_type: string };
  release: { id: number; commit: string } | null;
  config: EffectiveVariable[];
  services: { id: number; service_name: string; environment: EffectiveVariable[] }[];
}

export async function getEffectiveVariables(uuid: string): Promise<EffectiveVariables> {
  const { body } = await sdk.request.send<EffectiveVariables>({
    method: 'GET',
    baseUrl: window.location.origin,
    url: `/device/${encodeURIComponent(uuid)}/effective-variables`,
  });
  return body;
}

/** Under the device's key: whatever refreshes the device's data (an apply) refreshes the panel too. */
export const effectiveVariablesKey = (uuid: string) => ['device', uuid, 'effective-variables'] as const;

/** Spec 2 §9: device pages poll every 60 s. */
export function useEffectiveVariables(uuid: string) {
  return useQuery({ queryKey: effectiveVariablesKey(uuid), queryFn: () => getEffectiveVariables(uuid), refetchInterval: 60_000 });
}
