import { queryOptions, useQuery } from '@tanstack/react-query';
import { pineGetOne } from '../../../lib/pine';
import { useSession } from '../../../lib/get-session';

/**
 * The appearance preferences (spec 1 §2): the apps feature flag (display-apps toggle), the
 * header colour and the navigation stripes — private fields of the user's own row, read in
 * one request by the shell (header, sidebar) and the preferences page.
 */
export interface Appearance {
  displaysApps: boolean;
  headerColor: string | null;
  showsNavigationStripes: boolean;
}

export const appearanceQueryKey = (userId: number | undefined) => ['preferences', 'appearance', userId ?? null] as const;

export const appearanceQueryOptions = (userId: number | undefined) =>
  queryOptions({
    queryKey: appearanceQueryKey(userId),
    queryFn: async (): Promise<Appearance> => {
      // These fields are ours, not in balena-sdk's typed user model.
      const user = await pineGetOne('user', userId!, { $select: ['displays_apps', 'header_color', 'shows_navigation_stripes'] });
      return {
        displaysApps: user?.displays_apps === true,
        headerColor: user?.header_color ?? null,
        showsNavigationStripes: user?.shows_navigation_stripes === true,
      };
    },
    enabled: userId !== undefined,
    staleTime: 60_000,
  });

export function useAppearance(): Appearance | undefined {
  const session = useSession();
  return useQuery(appearanceQueryOptions(session.data?.id)).data;
}

/** Whether the Apps section and the apps sub-pages show; `undefined` while unknown. */
export function useAppsEnabled(): boolean | undefined {
  return useAppearance()?.displaysApps;
}
