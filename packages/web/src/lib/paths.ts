import type { ApplicationClass } from '@flotilla/model';

/**
 * The dashboard's routes (spec 1 §2, spec 2 §2), built in one place: links, redirects and
 * navigations call these instead of writing path strings. `routePatterns` says what the
 * router (`app/router.tsx`) matches for each; `lib/paths.spec.ts` checks that every builder
 * answers a path its pattern matches.
 */

/** /fleets, /apps or /blocks: the list of one application class; an unknown class is a fleet. */
export function classSegment(appClass: string): `${ApplicationClass}s` {
  return appClass === 'app' || appClass === 'block' ? `${appClass}s` : 'fleets';
}

type Id = number | string;
const seg = (value: Id) => encodeURIComponent(String(value));
const sub = (page: string | undefined) => (page ? `/${page}` : '');

export const paths = {
  home: () => '/',
  login: () => '/login',
  loginTwoFactor: () => '/login/two-factor',
  loginCli: () => '/login/cli/',
  loginOAuth: (clientId: string) => `/login/oauth/${seg(clientId)}`,
  signup: () => '/signup',
  signupProfile: () => '/signup/profile',
  passwordReset: () => '/password-reset',
  passwordResetSuccess: () => '/password-reset/success',
  verifyEmailPending: () => '/user/verify-email/pending',
  /** /fleets, /apps, /blocks. */
  applications: (appClass = 'fleet') => `/${classSegment(appClass)}`,
  /** /{class}s/{id} and its tabs. */
  application: (appClass: string, id: Id, tab?: 'members' | 'teams' | 'settings' | 'api-keys' | 'devices' | 'releases' | 'envvars' | 'config') =>
    `/${classSegment(appClass)}/${seg(id)}${sub(tab)}`,
  /** Spec 2 §2: a fleet's device table, optionally filtered (`?is_running__release=…`). */
  fleetDevices: (fleetId: Id, query?: Record<string, string | number>) =>
    `/fleets/${seg(fleetId)}/devices${query ? `?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()}` : ''}`,
  release: (appClass: string, fleetId: Id, releaseId: Id, tab?: 'summary' | 'settings') =>
    `/${classSegment(appClass)}/${seg(fleetId)}/releases/${seg(releaseId)}${sub(tab)}`,
  device: (uuid: string, tab?: 'settings' | 'location' | 'envvars' | 'config') => `/devices/${seg(uuid)}${sub(tab)}`,
  organizations: () => '/orgs',
  organization: (orgId: Id, page?: 'members' | 'teams' | 'billing' | 'credits' | 'fleets' | 'apps' | 'blocks' | 'staff-access') => `/orgs/${seg(orgId)}${sub(page)}`,
  organizationMember: (orgId: Id, memberId: Id, tab?: string) => `/orgs/${seg(orgId)}/members/${seg(memberId)}${sub(tab)}`,
  organizationTeam: (orgId: Id, teamId: Id, tab?: string) => `/orgs/${seg(orgId)}/teams/${seg(teamId)}${sub(tab)}`,
  preferences: (tab?: string) => `/preferences${sub(tab === 'details' ? undefined : tab)}`,
  admin: () => '/admin',
  /** The support page (spec 3 §2); also where 'Contact sales' leads. */
  support: () => '/support',
  /** Spec 1 §2: the support portal's sign-in (issue 19), going on to `return_to`. */
  zendeskLogin: (returnTo?: string) => `/zendesk-login${returnTo ? `?return_to=${encodeURIComponent(returnTo)}` : ''}`,
  /** Spec 1 §2: the identity-provider landing, or one provider's details. */
  identityProvider: (id?: Id) => `/identity-provider${id === undefined ? '' : `/${seg(id)}`}`,
} as const;

/** What the router matches for each route (react-router patterns); not shipped unless used. */
export const routePatterns: Record<keyof typeof paths, string> = {
  home: '/',
  login: '/login',
  loginTwoFactor: '/login/two-factor',
  loginCli: '/login/cli/*',
  loginOAuth: '/login/oauth/:clientId',
  signup: '/signup',
  signupProfile: '/signup/profile',
  passwordReset: '/password-reset',
  passwordResetSuccess: '/password-reset/success',
  verifyEmailPending: '/user/verify-email/pending',
  applications: '/:classes',
  application: '/:classes/:fleetId/:tab?',
  fleetDevices: '/fleets/:fleetId/devices',
  release: '/:classes/:fleetId/releases/:releaseId/:tab?',
  device: '/devices/:uuid/:tab?',
  organizations: '/orgs',
  organization: '/orgs/:orgId/:page?',
  organizationMember: '/orgs/:orgId/members/:memberId/:tab?',
  organizationTeam: '/orgs/:orgId/teams/:teamId/:tab?',
  preferences: '/preferences/:tab?',
  admin: '/admin',
  support: '/support',
  zendeskLogin: '/zendesk-login',
  identityProvider: '/identity-provider/:identityProviderId?',
};
