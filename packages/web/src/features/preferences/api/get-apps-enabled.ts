import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { useSession } from '../../auth/api/get-session';

/**
 * The apps feature flag (spec 1 §2 appearance preferences: the display-apps toggle), a
 * private field of the user's own row. Off until the user turns it on.
 */
export const appsEnabledQueryOptions = (userId: number | undefined) =>
  queryOptions({
    queryKey: ['preferences', 'displays_apps', userId ?? null] as const,
    queryFn: async () => {
      // displays_apps is ours, not in balena-sdk's typed user model.
      const user = (await sdk.pine.get({ resource: 'user', id: userId!, options: { $select: 'displays_apps' as never } })) as
        | { displays_apps?: boolean | null }
        | undefined;
      return user?.displays_apps === true;
    },
    enabled: userId !== undefined,
    staleTime: 60_000,
  });

/** Whether the Apps section and the apps sub-pages show; `undefined` while unknown. */
export function useAppsEnabled(): boolean | undefined {
  const session = useSession();
  return useQuery(appsEnabledQueryOptions(session.data?.id)).data;
}
