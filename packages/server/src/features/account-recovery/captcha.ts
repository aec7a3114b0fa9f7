import { ACCOUNT_MESSAGES } from '@flotilla/model';
import { BadRequestError, HttpError } from '../../infra/errors.js';
import { DEFAULT_CAPTCHA_VERIFY_URL, type CaptchaOptions } from './options.js';

const DEFAULT_TIMEOUT_MS = 10_000;

/** 503: the verifier could not be asked (down, unreachable, slow or answering nonsense). */
export class CaptchaUnavailableError extends HttpError {
  constructor() {
    super(503, ACCOUNT_MESSAGES.captchaUnavailable, { 'Retry-After': '30' });
  }
}

/**
 * Spec 1 §5: sign-up (and a password reset request) carries a captcha response. With a
 * secret configured the response is checked with a reCAPTCHA-compatible verifier (POST
 * form `secret`, `response`, `remoteip` → JSON `{success}`): missing → 400, refused → 400,
 * verifier unreachable → 503. Without a secret any (dummy) response passes.
 */
export async function checkCaptcha(opts: CaptchaOptions | undefined, response: unknown, remoteIp: string): Promise<void> {
  if (!opts?.secret) return;
  if (typeof response !== 'string' || response.trim() === '') throw new BadRequestError(ACCOUNT_MESSAGES.captchaRequired);
  const form = new URLSearchParams({ secret: opts.secret, response, remoteip: remoteIp });
  let answer: unknown;
  try {
    const res = await fetch(opts.verifyUrl ?? DEFAULT_CAPTCHA_VERIFY_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      signal: AbortSignal.timeout(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      redirect: 'error',
    });
    if (!res.ok) throw new Error(`captcha verifier answered ${res.status}`);
    answer = await res.json();
  } catch {
    throw new CaptchaUnavailableError();
  }
  if (typeof answer !== 'object' || answer === null || typeof (answer as { success?: unknown }).success !== 'boolean') {
    throw new CaptchaUnavailableError();
  }
  if (!(answer as { success: boolean }).success) throw new BadRequestError(ACCOUNT_MESSAGES.captchaFailed);
}
