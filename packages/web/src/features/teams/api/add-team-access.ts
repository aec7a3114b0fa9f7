import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { getApplicationRoles } from './get-application-roles';
import { teamsRootKey } from './keys';

/**
 * POST team_application_access {team, grants_access_to__application,
 * application_membership_role} per application; the application must belong to the
 * team's organization (else 400).
 */
export async function addTeamAccess({ teamId, applicationIds, roleName }: { teamId: number; applicationIds: number[]; roleName: string }) {
  const roleId = (await getApplicationRoles()).get(roleName);
  if (roleId === undefined) throw new Error(`Unknown role ${roleName}`);
  for (const applicationId of applicationIds) {
    await sdk.pine.post({
      resource: 'team_application_access',
      body: { team: teamId, grants_access_to__application: applicationId, application_membership_role: roleId },
    });
  }
}

export function useAddTeamAccess() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: addTeamAccess, onSettled: () => queryClient.invalidateQueries({ queryKey: teamsRootKey }) });
}
