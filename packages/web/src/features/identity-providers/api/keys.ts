/** Query keys of the identity-providers feature: every query of it sits under `identityProvidersRootKey`. */
export const identityProvidersRootKey = ['identity-providers'] as const;

/** The providers the user can see (the landing decides from it). */
export const identityProvidersListKey = [...identityProvidersRootKey, 'list'] as const;
