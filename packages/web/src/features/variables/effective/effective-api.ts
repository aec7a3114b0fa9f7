import type { EffectiveVariablesResponse } from '@flotilla/model';
import { useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

export type { EffectiveVariable, VariableLevel } from '@flotilla/model';
type EffectiveVariables = EffectiveVariablesResponse;

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
