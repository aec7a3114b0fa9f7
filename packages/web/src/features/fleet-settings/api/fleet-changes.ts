import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { fleetSettingsKey } from './keys';

/** The writable application fields the settings page changes (spec 2 §7 "PATCH application/{id}"). */
export interface FleetPatch {
  is_stored_at__repository_url?: string | null;
  is_public?: boolean;
  is_for__device_type?: number;
  /** Transfer ownership. */
  organization?: number;
}

export type FleetChange =
  | { kind: 'rename'; name: string }
  | { kind: 'grant-support'; until: number }
  | { kind: 'revoke-support' }
  | { kind: 'pin'; commit: string }
  | { kind: 'track-latest' }
  | { kind: 'patch'; body: FleetPatch };

/** Spec 2 §7: the SDK's application calls where it has one, a data API PATCH otherwise. */
export async function applyFleetChange(fleetId: number, change: FleetChange): Promise<void> {
  const apps = sdk.models.application;
  switch (change.kind) {
    case 'rename':
      return apps.rename(fleetId, change.name);
    case 'grant-support':
      return apps.grantSupportAccess(fleetId, change.until);
    case 'revoke-support':
      return apps.revokeSupportAccess(fleetId);
    case 'pin':
      return apps.pinToRelease(fleetId, change.commit);
    case 'track-latest':
      return apps.trackLatestRelease(fleetId);
    case 'patch':
      await sdk.pine.patch({ resource: 'application', id: fleetId, body: change.body });
  }
}

/**
 * One mutation for every change of the fleet's settings; afterwards this feature's queries
 * and the caller's (`onChanged`: the shell's header, the fleet lists) are refreshed.
 */
export function useFleetChange(fleetId: number, onChanged?: () => Promise<unknown> | void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: FleetChange) => applyFleetChange(fleetId, change),
    onSettled: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: fleetSettingsKey(fleetId) }), onChanged?.()]);
    },
  });
}

/** Deletes the fleet (and, by the server's cascade, its devices and releases). */
export function useDeleteFleet(fleetId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => sdk.models.application.remove(fleetId),
    onSuccess: () => queryClient.removeQueries({ queryKey: fleetSettingsKey(fleetId) }),
  });
}
