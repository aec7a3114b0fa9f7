import 'i18next';
import type en from './locales/en.json';
// Feature bundles added at run time with their route chunks (see features/releases/i18n.ts).
import type releasesEn from './features/releases/locales/en.json';
import type devicesEn from './features/devices/locales/en.json';
import type diagnosticsEn from './features/device-diagnostics/locales/en.json';
import type deviceActionsEn from './features/device-actions/locales/en.json';
import type devicesSummaryEn from './features/devices/locales/summary.en.json';
import type devicesLocationEn from './features/devices/locales/location.en.json';
import type devicesOsEn from './features/devices/locales/os.en.json';
import type preferencesEn from './features/preferences/locales/en.json';
import type twoFactorEn from './features/two-factor/locales/en.json';
import type accountEn from './features/account/locales/en.json';
import type verifyEmailEn from './features/verify-email/locales/en.json';
import type passwordResetEn from './features/password-reset/locales/en.json';
import type signupProfileEn from './features/signup-profile/locales/en.json';
import type signupEn from './features/auth/locales/signup.en.json';
import type socialEn from './features/auth/locales/social.en.json';
import type samlEn from './features/auth/locales/saml.en.json';
import type reverifyEn from './components/locales/reverify.en.json';
import type addDeviceEn from './features/add-device/locales/en.json';
import type deviceLogsEn from './features/device-logs/locales/en.json';
import type stagingEn from './features/variables/staging/locales/en.json';
import type variablesEn from './features/variables/locales/en.json';
import type variablesConfigEn from './features/variables/config/locales/en.json';
import type variablesEffectiveEn from './features/variables/effective/locales/en.json';
import type variablesHistoryEn from './features/variables/history/locales/en.json';
import type adminOsEn from './features/admin/locales/os.en.json';
import type adminBillingEn from './features/admin/locales/billing.en.json';
import type adminInvoicesEn from './features/admin/locales/invoices.en.json';
import type adminCreditsEn from './features/admin/locales/credits.en.json';
import type billingEn from './features/billing/locales/en.json';
import type creditsEn from './features/credits/locales/en.json';
import type staffAccessEn from './features/staff-access/locales/en.json';
import type identityProvidersEn from './features/identity-providers/locales/en.json';
import type billingBannersEn from './features/billing-banners/locales/en.json';
import type platformNewsEn from './features/platform-news/locales/en.json';
import type supportEn from './features/support/locales/en.json';
import type adminSupportEn from './features/admin/locales/support.en.json';
import type platformEn from './app/platform/locales/en.json';
import type platformLaterEn from './app/platform/locales/later.en.json';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en & { releases: typeof releasesEn; devices: typeof devicesEn & typeof devicesLocationEn & typeof devicesSummaryEn & typeof devicesOsEn; preferences: typeof preferencesEn; twoFactor: typeof twoFactorEn; account: typeof accountEn; verifyEmail: typeof verifyEmailEn; passwordReset: typeof passwordResetEn; signupProfile: typeof signupProfileEn; signup: typeof signupEn; reverify: typeof reverifyEn; add_device: typeof addDeviceEn; diagnostics: typeof diagnosticsEn; deviceActions: typeof deviceActionsEn } & { deviceLogs: typeof deviceLogsEn } & { staging: typeof stagingEn; variables: typeof variablesEn } & { variablesConfig: typeof variablesConfigEn; variablesEffective: typeof variablesEffectiveEn; variablesHistory: typeof variablesHistoryEn } & { admin: typeof adminOsEn } & { admin: typeof adminBillingEn } & { admin: typeof adminInvoicesEn } & { admin: typeof adminCreditsEn } & { billing: typeof billingEn } & { credits: typeof creditsEn; billing_banners: typeof billingBannersEn } & { platform_news: typeof platformNewsEn } & { staff_access: typeof staffAccessEn } & { identity_providers: typeof identityProvidersEn } & { support: typeof supportEn } & { admin: typeof adminSupportEn } & { platform: typeof platformEn; platformLater: typeof platformLaterEn } & { social: typeof socialEn } & { saml: typeof samlEn } };
  }
}
