import type { AccountConfig, CaptchaConfig } from '../../infra/app/context.js';

/**
 * Settings of sign-up, e-mail verification and password reset (issue 6 items 2–3): the
 * app's `config.accounts` (main.ts fills it from FLOTILLA_CAPTCHA_* and
 * FLOTILLA_REQUIRE_EMAIL_VERIFICATION). Expiry and rate limits read the app's clock.
 */
export type AccountOptions = AccountConfig;
export type CaptchaOptions = CaptchaConfig;

export const DEFAULT_CAPTCHA_VERIFY_URL = 'https://www.google.com/recaptcha/api/siteverify';
