/**
 * State-changing custom routes that are not in an organization's audit log, each with the
 * reason (issue 21 item 5; docs/audit-log.md "Exemptions"). audit-coverage.api.test.ts fails
 * on a route that neither declares `config.audit` nor is listed here.
 */

const OWN_ACCOUNT = "the caller's own account (no organization's data): the log is an organization's, and a user row belongs to none";
const SIGN_IN = 'signing in or proving who one is: creates a session, changes no organization data';
const TELEMETRY = 'device telemetry (state reports, log lines), thousands a minute per fleet: recorded as data, not as actions';
const PLATFORM = "the provider's own catalogue (OS and agent releases, plans, ticket fields), no organization's data";

export const AUDIT_EXEMPT: Readonly<Record<string, string>> = {
  // Accounts and sign-in.
  'POST /user/v1/verify-email': OWN_ACCOUNT,
  'PATCH /user/profile': OWN_ACCOUNT,
  'POST /user/v1/reset-password/:email': `${OWN_ACCOUNT}; sends a reset mail`,
  'POST /user/v1/reset-password': OWN_ACCOUNT,
  'POST /user/register': `${OWN_ACCOUNT}; the personal organization it creates starts its log with the next write`,
  'PATCH /user/password': OWN_ACCOUNT,
  'PATCH /user/email': OWN_ACCOUNT,
  'DELETE /user/v1/account': `${OWN_ACCOUNT}; the memberships it ends go with the user`,
  'POST /user/v1/ssh-keys/import': `${OWN_ACCOUNT} (SSH keys are a user's)`,
  'POST /api-key/user/full': `${OWN_ACCOUNT} (a user's own API key)`,
  'POST /user/v1/logout-others': OWN_ACCOUNT,
  'POST /auth/totp/verify': OWN_ACCOUNT,
  'POST /auth/totp/disable': OWN_ACCOUNT,
  'POST /auth/v1/2fa-recover/create': OWN_ACCOUNT,
  'POST /auth/v1/2fa-recover/verify': SIGN_IN,
  'POST /auth/:provider/link': `${OWN_ACCOUNT} (a social account linked)`,
  'DELETE /user/v1/social-accounts/:id': `${OWN_ACCOUNT} (a social account unlinked)`,
  'POST /login_': SIGN_IN,
  'POST /auth/v1/reverify': SIGN_IN,
  'POST /oauth/authorize': `${SIGN_IN} (an OAuth code for the caller's own session)`,
  'POST /oauth/token': SIGN_IN,
  'POST /auth/saml/:ssoIdentifier/callback': SIGN_IN,
  'POST /auth/saml/finalize': SIGN_IN,
  'PATCH /login_': `${SIGN_IN}: an administrator's session as a user; every write of that session is recorded with the administrator as the actual user`,
  // Devices reporting.
  'PATCH /device/v3/state': TELEMETRY,
  'PATCH /device/v2/:uuid/state': TELEMETRY,
  'POST /device/v2/:uuid/logs': TELEMETRY,
  'POST /device/v2/:uuid/log-stream': TELEMETRY,
  // The provider's catalogue and integrations.
  'POST /admin/v1/os-releases': PLATFORM,
  'POST /admin/v1/os-releases/:id/withdraw': PLATFORM,
  'POST /admin/v1/supervisor-releases': PLATFORM,
  'PATCH /admin/v1/billing/plans/:id': PLATFORM,
  'POST /admin/v1/support/ticket-fields': PLATFORM,
  'PATCH /admin/v1/support/ticket-fields/:id': PLATFORM,
  'PUT /admin/v1/support/ticket-fields/order': PLATFORM,
  'POST /billing/v1/stripe/webhook':
    "the payment provider's signed notification, not a person's action; its effects are kept with the invoice (state history) and the organization's billing rows",
  'PUT /files/v1/uploads/:uuid/:part': 'one part of a signed file upload: the bytes only; the row the file belongs to is written by the data API (beginUpload/commitUpload) or the route that asked for the upload',
};
