import type { ApplicationClass } from '@flotilla/model';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { applicationsQueryKey } from './get-applications';

export interface CreateApplicationInput {
  name: string;
  organizationId: number;
  deviceTypeSlug: string;
  applicationClass: ApplicationClass;
}

/** Spec 2 §7 SDK create {organization, name, deviceType, applicationClass}; resolves to the new id. */
export async function createApplication({ name, organizationId, deviceTypeSlug, applicationClass }: CreateApplicationInput): Promise<number> {
  const app = await sdk.models.application.create({
    name,
    organization: organizationId,
    deviceType: deviceTypeSlug,
    applicationClass,
  });
  // Spec 2 §5: a created application without an id is an error.
  if (typeof app?.id !== 'number') throw new Error('could not find id');
  return app.id;
}

export function useCreateApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApplication,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: applicationsQueryKey }),
  });
}
