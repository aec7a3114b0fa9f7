/**
 * Settings of sign-up, e-mail verification and password reset (issue 6 items 2–3). main.ts
 * fills them from FLOTILLA_CAPTCHA_* and FLOTILLA_REQUIRE_EMAIL_VERIFICATION; tests pass a
 * clock so expiry and rate limits need no waiting.
 */
export interface AccountOptions {
  captcha?: CaptchaOptions;
  /** FLOTILLA_REQUIRE_EMAIL_VERIFICATION: unverified users may not use the data API. */
  requireEmailVerification?: boolean;
  /** Now, for token expiry and rate limits (default: the system clock). */
  clock?: () => Date;
}

export interface CaptchaOptions {
  /** FLOTILLA_CAPTCHA_SECRET; unset = a dummy response passes (spec 1 §5). */
  secret?: string | undefined;
  /** FLOTILLA_CAPTCHA_SITE_KEY, handed to the dashboard. */
  siteKey?: string | undefined;
  /** FLOTILLA_CAPTCHA_VERIFY_URL (reCAPTCHA siteverify protocol). */
  verifyUrl?: string | undefined;
  /** How long to wait for the verifier (default 10 s). */
  timeoutMs?: number | undefined;
}

export const DEFAULT_CAPTCHA_VERIFY_URL = 'https://www.google.com/recaptcha/api/siteverify';
export const systemClock = (): Date => new Date();
