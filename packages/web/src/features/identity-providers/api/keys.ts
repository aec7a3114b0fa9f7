/** Query keys of the identity-providers feature: every query of it sits under `identityProvidersRootKey`. */
export const identityProvidersRootKey = ['identity-providers'] as const;
