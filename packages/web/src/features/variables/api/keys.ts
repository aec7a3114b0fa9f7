/** Query keys of the variables pages; every query of the feature sits under `variablesRootKey`. */
export const variablesRootKey = ['variables'] as const;
export const fleetVariablesKey = (fleetId: number) => [...variablesRootKey, 'fleet', fleetId] as const;
export const deviceVariablesKey = (deviceId: number) => [...variablesRootKey, 'device', deviceId] as const;
export const overridesKey = (fleetId: number, serviceId: number, name: string) => [...variablesRootKey, 'overrides', fleetId, serviceId, name] as const;

/** Spec 2 §9: the overrides dialog's page size. */
export const OVERRIDES_PAGE_SIZE = 5;
