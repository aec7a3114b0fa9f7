import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { fleetsQueryKey } from './get-fleets';

export interface CreateFleetInput {
  name: string;
  organizationId: number;
  deviceTypeSlug: string;
}

export async function createFleet({ name, organizationId, deviceTypeSlug }: CreateFleetInput) {
  return sdk.models.application.create({
    name,
    organization: organizationId,
    deviceType: deviceTypeSlug,
    applicationClass: 'fleet',
  });
}

export function useCreateFleet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createFleet,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: fleetsQueryKey }),
  });
}
