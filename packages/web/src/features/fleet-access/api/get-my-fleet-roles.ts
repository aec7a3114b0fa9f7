import type { ApplicationMembershipRole, OrganizationRole } from '@flotilla/model';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { fleetKey } from './keys';

export interface MyFleetRoles {
  userId: number;
  orgRole: OrganizationRole | null;
  membershipRole: ApplicationMembershipRole | null;
  teamRoles: ApplicationMembershipRole[];
}

/**
 * What the effective fleet role is made of (spec 2 §6): my organization membership in the
 * fleet's organization, my own fleet membership, and the access of the teams I belong to.
 * A read the caller may not make answers an empty list, which counts as "no role from there".
 */
export async function getMyFleetRoles(fleetId: number, organizationId: number): Promise<MyFleetRoles> {
  const { id: userId } = await sdk.auth.getUserInfo();
  const [orgMemberships, fleetMemberships, teamAccess] = await Promise.all([
    sdk.pine.get({
      resource: 'organization_membership',
      options: {
        $select: ['id'],
        $filter: { user: userId, is_member_of__organization: organizationId },
        $expand: { organization_membership_role: { $select: ['name'] } },
      },
    }),
    sdk.pine.get({
      resource: 'user_application_membership',
      options: {
        $select: ['id'],
        $filter: { user: userId, is_member_of__application: fleetId },
        $expand: { application_membership_role: { $select: ['name'] } },
      },
    }),
    sdk.pine.get({
      resource: 'team_application_access',
      options: {
        $select: ['id'],
        $filter: { grants_access_to__application: fleetId },
        $expand: {
          application_membership_role: { $select: ['name'] },
          team: { $select: ['id'], $expand: { team_membership: { $select: ['id'], $filter: { user: userId } } } },
        },
      },
    }),
  ]);
  return {
    userId,
    orgRole: (orgMemberships[0]?.organization_membership_role[0]?.name as OrganizationRole | undefined) ?? null,
    membershipRole: (fleetMemberships[0]?.application_membership_role[0]?.name as ApplicationMembershipRole | undefined) ?? null,
    teamRoles: teamAccess
      .filter((a) => (a.team[0]?.team_membership.length ?? 0) > 0)
      .flatMap((a) => {
        const name = a.application_membership_role[0]?.name;
        return name ? [name as ApplicationMembershipRole] : [];
      }),
  };
}

export const myFleetRolesQueryOptions = (fleetId: number, organizationId: number) =>
  queryOptions({ queryKey: [...fleetKey(fleetId), 'my-roles', organizationId], queryFn: () => getMyFleetRoles(fleetId, organizationId) });

export function useMyFleetRoles(fleetId: number, organizationId: number | undefined) {
  return useQuery({
    ...myFleetRolesQueryOptions(fleetId, organizationId ?? 0),
    enabled: organizationId !== undefined,
  });
}
