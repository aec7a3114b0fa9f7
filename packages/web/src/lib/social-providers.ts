import { useQuery } from '@tanstack/react-query';
import { sdk } from './sdk';

/** A configured social sign-in provider (GET /config/dashboard `socialProviders`, FLOTILLA_OIDC_PROVIDERS). */
export interface SocialProvider {
  id: string;
  name: string;
}

/** The providers the login page offers and preferences can link (issue 20); [] when none are configured. */
export function useSocialProviders() {
  return useQuery({
    queryKey: ['config', 'social-providers'],
    queryFn: async (): Promise<SocialProvider[]> => {
      const { body } = await sdk.request.send<{ socialProviders?: SocialProvider[] }>({
        method: 'GET',
        baseUrl: window.location.origin,
        url: '/config/dashboard',
        sendToken: false,
      });
      return body.socialProviders ?? [];
    },
    staleTime: Infinity,
  });
}

/** Where the browser starts a sign-in with a provider (the API host, spec 1 §2: /auth/{provider}). */
export const socialSignInUrl = (providerId: string) => `/auth/${encodeURIComponent(providerId)}`;

/** The query parameter by which the server sends a failed start back to /login or /preferences/details. */
export const SOCIAL_ERROR_PARAM = 'social_error';
