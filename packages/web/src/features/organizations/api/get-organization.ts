import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

/** Root of every query about one organization (the summary's data). */
export const organizationQueryKey = (id: number) => ['organization', id] as const;

/**
 * One organization, or null when it does not exist or the user may not read it (the API
 * answers `{"d":[]}` for both).
 */
export async function getOrganization(id: number) {
  const organization = await sdk.pine.get({
    resource: 'organization',
    id,
    options: { $select: ['id', 'name', 'handle', 'created_at', 'logo_image', 'is_frozen', 'company_name'] },
  });
  return organization ?? null;
}

export type OrganizationDetails = NonNullable<Awaited<ReturnType<typeof getOrganization>>>;

export const organizationQueryOptions = (id: number) =>
  queryOptions({ queryKey: organizationQueryKey(id), queryFn: () => getOrganization(id) });

export function useOrganization(id: number) {
  return useQuery(organizationQueryOptions(id));
}
