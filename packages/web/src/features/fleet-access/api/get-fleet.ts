import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { fleetKey } from './keys';

export interface FleetDetails {
  id: number;
  app_name: string;
  slug: string;
  created_at: string;
  is_of__class: 'fleet' | 'app' | 'block';
  is_accessible_by_support_until__date: string | null;
  organization: { id: number; name: string; is_frozen: boolean };
  deviceType: { slug: string; name: string } | null;
}

/** The application with its organization and device type, or null (missing and unreadable both answer {"d":[]}). */
export async function getFleet(fleetId: number): Promise<FleetDetails | null> {
  const app = await sdk.pine.get({
    resource: 'application',
    id: fleetId,
    options: {
      $select: ['id', 'app_name', 'slug', 'created_at', 'is_of__class', 'is_accessible_by_support_until__date'],
      $expand: {
        organization: { $select: ['id', 'name', 'is_frozen'] },
        is_for__device_type: { $select: ['slug', 'name'] },
      },
    },
  });
  const organization = app?.organization[0];
  if (!app || !organization) return null;
  const deviceType = app.is_for__device_type[0];
  return {
    id: app.id,
    app_name: app.app_name,
    slug: app.slug,
    created_at: app.created_at,
    is_of__class: app.is_of__class as FleetDetails['is_of__class'],
    is_accessible_by_support_until__date: app.is_accessible_by_support_until__date,
    organization: { id: organization.id, name: organization.name, is_frozen: organization.is_frozen },
    deviceType: deviceType ? { slug: deviceType.slug, name: deviceType.name } : null,
  };
}

export const fleetQueryOptions = (fleetId: number) =>
  queryOptions({ queryKey: [...fleetKey(fleetId), 'detail'], queryFn: () => getFleet(fleetId) });

export function useFleet(fleetId: number) {
  return useQuery(fleetQueryOptions(fleetId));
}
