import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import type { Patch } from '@flotilla/model';
import { pineGet, pineGetOne, pinePatch } from '../../../lib/pine';
import { appearanceQueryKey, type Appearance } from './get-apps-enabled';

export interface SocialAccount {
  id: number;
  display_name: string | null;
  provider: string;
}

/** Spec 1 §7: the caller's linked social accounts (display name, provider). */
export function useSocialAccounts(userId: number | undefined) {
  return useQuery({
    queryKey: ['preferences', 'social-accounts', userId ?? null],
    queryFn: async () =>
      pineGet('social_service_account', { $select: ['id', 'display_name', 'provider'], $filter: { belongs_to__user: userId } }),
    enabled: userId !== undefined,
  });
}

/**
 * Link a provider (issue 20): the server makes a short-lived link intent for the signed-in user
 * (the browser's navigation to the provider cannot carry the bearer token), then the browser
 * goes to the URL it answers; the provider's callback links the account.
 */
export function useLinkSocialAccount() {
  return useMutation({
    mutationFn: async (providerId: string) => {
      const { body } = await sdk.request.send<{ url: string }>({
        method: 'POST',
        baseUrl: window.location.origin,
        url: `/auth/${encodeURIComponent(providerId)}/link`,
        body: {},
      });
      window.location.assign(body.url);
    },
  });
}

/** Unlink one of the caller's social accounts; the server refuses the last way to sign in. */
export function useUnlinkSocialAccount(userId: number | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => sdk.request.send({ method: 'DELETE', baseUrl: window.location.origin, url: `/user/v1/social-accounts/${id}` }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['preferences', 'social-accounts', userId ?? null] }),
  });
}

export interface Profile {
  first_name: string;
  last_name: string;
  company: string;
  account_type: 'personal' | 'professional' | '';
}

export function useProfile(userId: number | undefined) {
  return useQuery({
    queryKey: ['preferences', 'profile', userId ?? null],
    queryFn: async (): Promise<Profile> => {
      const user = await pineGetOne('user', userId!, { $select: ['first_name', 'last_name', 'company', 'account_type'] });
      return {
        first_name: user?.first_name ?? '',
        last_name: user?.last_name ?? '',
        company: user?.company ?? '',
        account_type: user?.account_type ?? '',
      };
    },
    enabled: userId !== undefined,
  });
}

export function useSaveProfile(userId: number | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    // Spec 1 §7: PATCH /user/profile (the profile step's endpoint; it checks all four fields).
    mutationFn: (profile: Profile) => sdk.request.send({ method: 'PATCH', baseUrl: window.location.origin, url: '/user/profile', body: profile }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['preferences', 'profile', userId ?? null] }),
  });
}

const APPEARANCE_FIELDS = {
  displaysApps: 'displays_apps',
  headerColor: 'header_color',
  showsNavigationStripes: 'shows_navigation_stripes',
} as const satisfies Record<keyof Appearance, keyof Patch<'user'>>;

/** Saves appearance preferences; the header and sidebar follow at once. */
export function useSaveAppearance(userId: number | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: Partial<Appearance>) =>
      pinePatch('user', { id: userId! }, Object.fromEntries(Object.entries(change).map(([k, v]) => [APPEARANCE_FIELDS[k as keyof Appearance], v])) as Patch<'user'>),
    // Optimistic: the switch and the header follow at once; a refused change rolls back.
    onMutate: async (change) => {
      await queryClient.cancelQueries({ queryKey: appearanceQueryKey(userId) });
      const previous = queryClient.getQueryData<Appearance>(appearanceQueryKey(userId));
      if (previous) queryClient.setQueryData<Appearance>(appearanceQueryKey(userId), { ...previous, ...change });
      return { previous };
    },
    onError: (_err, _change, context) => {
      if (context?.previous) queryClient.setQueryData(appearanceQueryKey(userId), context.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: appearanceQueryKey(userId) }),
  });
}

/** Whether this is a staging deployment (GET /config/preferences): only then are navigation stripes offered. */
export function useIsStaging() {
  return useQuery({
    queryKey: ['preferences', 'config'],
    queryFn: async () => {
      const { body } = await sdk.request.send<{ staging: boolean }>({
        method: 'GET',
        baseUrl: window.location.origin,
        url: '/config/preferences',
        sendToken: false,
      });
      return body.staging;
    },
    staleTime: Infinity,
  });
}
