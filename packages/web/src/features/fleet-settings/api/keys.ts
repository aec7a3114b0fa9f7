/** Query keys of the fleet-settings feature: everything about one fleet sits under `fleetSettingsKey(id)`. */
export const fleetSettingsKey = (fleetId: number) => ['fleet-settings', fleetId] as const;
