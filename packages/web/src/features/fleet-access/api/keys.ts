/** Query keys of the fleet-access feature: everything about one fleet sits under `fleetKey(id)`. */
export const fleetAccessRootKey = ['fleet-access'] as const;
export const fleetKey = (fleetId: number) => [...fleetAccessRootKey, fleetId] as const;
