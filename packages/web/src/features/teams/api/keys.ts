/** Query keys of the teams feature: every team query sits under `teamsRootKey`. */
export const teamsRootKey = ['teams'] as const;
