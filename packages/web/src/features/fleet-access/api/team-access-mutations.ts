import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { fleetKey } from './keys';

/** application_membership_role id by name (spec 2 §7 "lookup by name"). */
async function roleId(roleName: string): Promise<number> {
  const [role] = await sdk.pine.get({
    resource: 'application_membership_role',
    options: { $select: ['id'], $filter: { name: roleName } },
  });
  if (!role) throw new Error(`Unknown role ${roleName}`);
  return role.id;
}

/** POST team_application_access per team (organization and fleet administrators). */
async function addTeamAccess({ fleetId, teamIds, roleName }: { fleetId: number; teamIds: number[]; roleName: string }) {
  const role = await roleId(roleName);
  for (const team of teamIds) {
    await sdk.pine.post({
      resource: 'team_application_access',
      body: { team, grants_access_to__application: fleetId, application_membership_role: role },
    });
  }
}

async function changeTeamAccessRole({ accessId, roleName }: { fleetId: number; accessId: number; roleName: string }) {
  await sdk.pine.patch({ resource: 'team_application_access', id: accessId, body: { application_membership_role: await roleId(roleName) } });
}

/** Spec 2 §7: DELETE team_application_access filtered by application and team. */
async function removeTeamAccess({ fleetId, teamIds }: { fleetId: number; teamIds: number[] }) {
  await sdk.pine.delete({
    resource: 'team_application_access',
    options: { $filter: { grants_access_to__application: fleetId, team: { $in: teamIds } } },
  });
}

function useFleetMutation<Input extends { fleetId: number }>(mutationFn: (input: Input) => Promise<void>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: (_data, _err, { fleetId }) => queryClient.invalidateQueries({ queryKey: fleetKey(fleetId) }),
  });
}

export const useAddTeamAccess = () => useFleetMutation(addTeamAccess);
export const useChangeTeamAccessRole = () => useFleetMutation(changeTeamAccessRole);
export const useRemoveTeamAccess = () => useFleetMutation(removeTeamAccess);
