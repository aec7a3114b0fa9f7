import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { fleetSettingsKey } from './keys';

export interface ProvisioningKey {
  id: number;
  name: string | null;
  description: string | null;
  created_at: string;
  expiry_date: string | null;
}

const provisioningKeysKey = (fleetId: number) => [...fleetSettingsKey(fleetId), 'provisioning-keys'] as const;

/** Spec 2 §2 api-keys: the fleet's provisioning keys (api_key rows of the fleet's actor), newest first. */
export async function getProvisioningKeys(fleetId: number): Promise<ProvisioningKey[]> {
  const keys = await sdk.models.apiKey.getProvisioningApiKeysByApplication(fleetId, {
    $select: ['id', 'name', 'description', 'created_at', 'expiry_date'],
    $orderby: [{ created_at: 'desc' }, { id: 'desc' }],
  });
  return keys.map((k) => ({ id: k.id, name: k.name, description: k.description, created_at: k.created_at, expiry_date: k.expiry_date }));
}

export const provisioningKeysQueryOptions = (fleetId: number) =>
  queryOptions({ queryKey: provisioningKeysKey(fleetId), queryFn: () => getProvisioningKeys(fleetId) });

export function useProvisioningKeys(fleetId: number) {
  return useQuery(provisioningKeysQueryOptions(fleetId));
}

export interface NewProvisioningKey {
  name: string;
  description: string | undefined;
  /** ISO date, or null for a key that never expires. */
  expiryDate: string | null;
}

/**
 * Dialect §1.3: `POST /api-key/v2/ {actorType:'application', actorTypeId, roles:
 * ['provisioning-api-key'], name, description, expiryDate}`; answers the key once.
 */
export function useCreateProvisioningKey(fleetId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (key: NewProvisioningKey) =>
      sdk.models.application.generateProvisioningKey({
        slugOrUuidOrId: fleetId,
        keyName: key.name,
        keyDescription: key.description,
        keyExpiryDate: key.expiryDate,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: provisioningKeysKey(fleetId) }),
  });
}

export function useRevokeProvisioningKey(fleetId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: number) => sdk.models.apiKey.revoke(keyId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: provisioningKeysKey(fleetId) }),
  });
}
