import { createBrowserRouter, Navigate } from 'react-router';
import { FullPageSpinner } from '../components/full-page-status';
import { loadChunk } from '../lib/connectivity/timeouts';
import { PublicOnly } from './guards/public-only';
import { RequireAuth } from './guards/require-auth';
import { AppLayout } from './layout/app-layout';
import { RouteErrorBoundary } from './routes/route-error';

/** /{class}s/{applicationId} with its sub-pages (spec 2 §2); the shell decides the class. */
function applicationShellRoute(prefix: 'fleets' | 'apps' | 'blocks') {
  return {
    path: `${prefix}/:fleetId`,
    lazy: async () => ({ Component: (await loadChunk(() => import('./routes/fleet-shell'))).FleetShellRoute }),
    children: [
      { index: true, lazy: async () => ({ Component: (await loadChunk(() => import('./routes/fleet-summary'))).FleetSummaryRoute }) },
      { path: 'members', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/fleet-members'))).FleetMembersRoute }) },
      { path: 'teams', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/fleet-teams'))).FleetTeamsRoute }) },
      { path: 'settings', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/fleet-settings'))).FleetSettingsRoute }) },
      // Spec 2 §2: provisioning keys and devices are fleet pages only.
      ...(prefix === 'fleets'
        ? [
            { path: 'api-keys', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/fleet-api-keys'))).FleetApiKeysRoute }) },
            { path: 'devices', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/fleet-devices'))).FleetDevicesRoute }) },
            { path: 'envvars', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/fleet-envvars'))).FleetEnvVarsRoute }) },
            { path: 'config', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/fleet-config'))).FleetConfigRoute }) },
          ]
        : []),
      { path: 'releases', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/fleet-releases'))).FleetReleasesRoute }) },
      {
        path: 'releases/:releaseId',
        lazy: async () => ({ Component: (await loadChunk(() => import('./routes/release-shell'))).ReleaseShellRoute }),
        children: [
          { index: true, element: <Navigate to="summary" replace /> },
          { path: 'summary', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/release-summary'))).ReleaseSummaryRoute }) },
          { path: 'settings', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/release-settings'))).ReleaseSettingsRoute }) },
        ],
      },
    ],
  };
}

// Every page is its own chunk; the first page ships only the shell plus that page. Each loads
// through loadChunk: a failure or 120 s without the chunk offers a reload (route-error.tsx).
export const router = createBrowserRouter([
  {
    HydrateFallback: FullPageSpinner,
    ErrorBoundary: RouteErrorBoundary,
    children: [
      {
        Component: PublicOnly,
        children: [
          { path: 'login', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/login'))).LoginRoute }) },
          { path: 'signup', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/signup'))).SignupRoute }) },
          { path: 'password-reset', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/password-reset'))).PasswordResetRoute }) },
          {
            path: 'password-reset/success',
            lazy: async () => ({ Component: (await loadChunk(() => import('./routes/password-reset'))).PasswordResetSuccessRoute }),
          },
          {
            path: 'user/reset-password/:loginCode',
            lazy: async () => ({ Component: (await loadChunk(() => import('./routes/password-reset'))).ResetPasswordRoute }),
          },
          // Enterprise single sign-on (spec 1 §2): the identifier, then off to the identity provider.
          { path: 'saml', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/saml'))).SamlLoginRoute }) },
          { path: 'saml/:ssoIdentifier', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/saml'))).SamlRedirectRoute }) },
        ],
      },
      // The mailed verification link works signed in or not (token first, then email).
      {
        path: 'user/verify-email/:token/:email',
        lazy: async () => ({ Component: (await loadChunk(() => import('./routes/verify-email'))).VerifyEmailRoute }),
      },
      // The social sign-in callback (spec 1 §2): signed out (sign-in) or in (a link from preferences).
      { path: 'auth/:provider/callback', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/social-callback'))).SocialCallbackRoute }) },
      // Neither public-only nor protected: it needs a session whose second factor is pending.
      { path: 'login/two-factor', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/login-two-factor'))).LoginTwoFactorRoute }) },
      // Back from the identity provider (spec 1 §2): signed out, or in as someone else, alike.
      { path: 'saml/callback/signon', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/saml'))).SamlSignonCallbackRoute }) },
      { path: 'saml/callback/merge', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/saml'))).SamlMergeCallbackRoute }) },
      {
        Component: RequireAuth,
        children: [
          // Consent pages of a signed-in user, without the app's navigation (spec 1 §2).
          { path: 'login/cli/*', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/login-cli'))).LoginCliRoute }) },
          { path: 'login/oauth/:clientId', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/login-oauth'))).LoginOAuthRoute }) },
          // No sidebar on the verify-email and profile-step pages (spec 1 §2).
          {
            path: 'user/verify-email/pending',
            lazy: async () => ({ Component: (await loadChunk(() => import('./routes/verify-email'))).VerifyEmailPendingRoute }),
          },
          { path: 'signup/profile', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/signup-profile'))).SignupProfileRoute }) },
          {
            Component: AppLayout,
            children: [
              { index: true, element: <Navigate to="/fleets" replace /> },
              { path: 'fleets', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/applications'))).FleetsRoute }) },
              { path: 'apps', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/applications'))).AppsRoute }) },
              { path: 'blocks', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/applications'))).BlocksRoute }) },
              { path: 'deploy', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/deploy'))).DeployRoute }) },
              {
                path: 'orgs/:orgId/fleets',
                lazy: async () => ({ Component: (await loadChunk(() => import('./routes/organization-applications'))).OrganizationFleetsRoute }),
              },
              {
                path: 'orgs/:orgId/apps',
                lazy: async () => ({ Component: (await loadChunk(() => import('./routes/organization-applications'))).OrganizationAppsRoute }),
              },
              {
                path: 'orgs/:orgId/blocks',
                lazy: async () => ({ Component: (await loadChunk(() => import('./routes/organization-applications'))).OrganizationBlocksRoute }),
              },
              ...(['fleets', 'apps', 'blocks'] as const).map(applicationShellRoute),
              {
                path: 'devices/:uuid',
                lazy: async () => ({ Component: (await loadChunk(() => import('./routes/device-shell'))).DeviceShellRoute }),
                children: [
                  { index: true, lazy: async () => ({ Component: (await loadChunk(() => import('./routes/device-summary'))).DeviceSummaryRoute }) },
                  { path: 'envvars', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/device-envvars'))).DeviceEnvVarsRoute }) },
                  { path: 'config', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/device-config'))).DeviceConfigRoute }) },
                  { path: 'actions', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/device-actions'))).DeviceActionsRoute }) },
                  { path: 'settings', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/device-settings'))).DeviceSettingsRoute }) },
                  { path: 'location', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/device-location'))).DeviceLocationRoute }) },
                  { path: 'diagnostics', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/device-diagnostics'))).DeviceDiagnosticsRoute }) },
                ],
              },
              { path: 'orgs', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/orgs'))).OrganizationsRoute }) },
              { path: 'admin', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/admin'))).AdminRoute }) },
              { path: 'preferences/:tab?', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/preferences'))).PreferencesRoute }) },
              {
                path: 'orgs/:orgId',
                lazy: async () => ({ Component: (await loadChunk(() => import('./routes/organization-summary'))).OrganizationSummaryRoute }),
              },
              {
                path: 'orgs/:orgId/billing',
                lazy: async () => ({ Component: (await loadChunk(() => import('./routes/organization-billing'))).OrganizationBillingRoute }),
              },
              {
                path: 'orgs/:orgId/credits',
                lazy: async () => ({ Component: (await loadChunk(() => import('./routes/organization-credits'))).OrganizationCreditsRoute }),
              },
              {
                path: 'orgs/:orgId/staff-access',
                lazy: async () => ({ Component: (await loadChunk(() => import('./routes/organization-staff-access'))).OrganizationStaffAccessRoute }),
              },
              {
                path: 'identity-provider/:identityProviderId?',
                lazy: async () => ({ Component: (await loadChunk(() => import('./routes/identity-provider'))).IdentityProviderRoute }),
              },
              { path: 'support', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/support'))).SupportRoute }) },
              { path: 'zendesk-login', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/zendesk-login'))).ZendeskLoginRoute }) },
              {
                path: 'orgs/:orgId/members',
                lazy: async () => ({ Component: (await loadChunk(() => import('./routes/organization-members'))).OrganizationMembersRoute }),
              },
              {
                path: 'orgs/:orgId/members/:memberId/:tab?',
                lazy: async () => ({ Component: (await loadChunk(() => import('./routes/member-summary'))).MemberSummaryRoute }),
              },
              {
                path: 'orgs/:orgId/teams',
                lazy: async () => ({ Component: (await loadChunk(() => import('./routes/organization-teams'))).OrganizationTeamsRoute }),
              },
              {
                path: 'orgs/:orgId/teams/:teamId/:tab?',
                lazy: async () => ({ Component: (await loadChunk(() => import('./routes/team-summary'))).TeamSummaryRoute }),
              },
              {
                path: 'organization/invitation/:token',
                lazy: async () => ({ Component: (await loadChunk(() => import('./routes/accept-invitation'))).AcceptOrganizationInvitationRoute }),
              },
              {
                path: 'invitation/:token',
                lazy: async () => ({ Component: (await loadChunk(() => import('./routes/accept-invitation'))).AcceptFleetInvitationRoute }),
              },
            ],
          },
        ],
      },
      { path: '*', lazy: async () => ({ Component: (await loadChunk(() => import('./routes/not-found'))).NotFoundRoute }) },
    ],
  },
]);
