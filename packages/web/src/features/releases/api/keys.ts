/** Query keys of the releases feature: every release query sits under `releasesRootKey`. */
export const releasesRootKey = ['releases'] as const;

export const releaseListKey = (fleetId: number) => [...releasesRootKey, 'list', fleetId] as const;
export const releaseKey = (releaseId: number) => [...releasesRootKey, 'detail', releaseId] as const;

/** Spec 2 §9: release lists (and the release page) refetch every 6 s. */
export const RELEASE_REFETCH_MS = 6000;

/** Spec 2 §7, §9: release page size 50. */
export const RELEASE_PAGE_SIZE = 50;
