import { timingSafeEqual } from 'node:crypto';
import { HOTP, Secret, TOTP } from 'otpauth';

/*
 * Time-based one-time passwords, RFC 6238 over RFC 4226 (HOTP): HMAC-SHA1, 6 digits,
 * 30-second steps, computed by `otpauth` (its base32, its HOTP, its key URI). What stays ours
 * is the policy: the drift window, one use per step, and the typing-friendly base32 input.
 */
export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps of clock drift accepted either side of the server's step (issue 6: at most one). */
export const TOTP_DRIFT_STEPS = 1;
/** 160-bit secrets, the size RFC 4226 recommends for HMAC-SHA1. */
export const TOTP_SECRET_BYTES = 20;

const ALGORITHM = 'SHA1';

/** RFC 4648 base32 without padding (what authenticator apps expect in otpauth:// URIs). */
export function base32Encode(bytes: Uint8Array): string {
  return new Secret({ buffer: Uint8Array.from(bytes).buffer }).base32;
}

/** Decodes base32, ignoring case, spaces, dashes and padding (pairing codes are typed by hand). */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=-]/g, '');
  try {
    return Buffer.from(Secret.fromBase32(clean).bytes);
  } catch (err) {
    throw new Error(`Invalid base32 text: ${(err as Error).message}`);
  }
}

export function generateTotpSecret(): string {
  return new Secret({ size: TOTP_SECRET_BYTES }).base32;
}

/** The step (RFC 6238 "T") an instant in ms falls into. */
export function totpStep(nowMs: number): number {
  return TOTP.counter({ period: TOTP_STEP_SECONDS, timestamp: nowMs });
}

/** RFC 4226 HOTP value for a counter, as a zero-padded decimal string. */
export function hotp(key: Uint8Array, counter: number, digits = TOTP_DIGITS): string {
  return HOTP.generate({ secret: new Secret({ buffer: Uint8Array.from(key).buffer }), algorithm: ALGORITHM, digits, counter });
}

/** The TOTP code of a base32 secret at a step. */
export function totpAt(secret: string, step: number, digits = TOTP_DIGITS): string {
  return hotp(base32Decode(secret), step, digits);
}

/**
 * The step a code matches within ±TOTP_DRIFT_STEPS of now, or null. Steps at or before
 * `lastUsedStep` are refused, so each code (and any older one) works once.
 * (otpauth's own `validate` stops at the first match and knows nothing of used steps.)
 */
export function matchTotp(secret: string, code: string, nowMs: number, lastUsedStep: number | null = null): number | null {
  if (!new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(code)) return null;
  const key = Secret.fromBase32(secret.replace(/[\s=-]/g, ''));
  const current = totpStep(nowMs);
  const given = Buffer.from(code);
  let matched: number | null = null;
  // Every candidate is compared (constant work whichever matches).
  for (let step = current - TOTP_DRIFT_STEPS; step <= current + TOTP_DRIFT_STEPS; step++) {
    const expected = Buffer.from(HOTP.generate({ secret: key, algorithm: ALGORITHM, digits: TOTP_DIGITS, counter: step }));
    if (timingSafeEqual(expected, given) && (lastUsedStep === null || step > lastUsedStep)) matched ??= step;
  }
  return matched;
}

/** Key URI for authenticator apps (the QR code's content); it carries the secret. */
export function otpauthUri(secret: string, account: string, issuer: string): string {
  return new TOTP({ issuer, label: account, secret: Secret.fromBase32(secret), algorithm: ALGORITHM, digits: TOTP_DIGITS, period: TOTP_STEP_SECONDS }).toString();
}
