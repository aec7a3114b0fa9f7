import { isSealed, SEALED_PREFIX, type SecretBox } from '../../infra/crypto/secret-box.js';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError, NotFoundError } from '../../infra/errors.js';
import { checkOwnPassword } from '../../infra/auth/password-check.js';
import { generateTotpSecret, matchTotp, otpauthUri } from './totp.js';
import { generateRecoveryCode, hashRecoveryCode, RECOVERY_CODE_COUNT } from './recovery-codes.js';
import { assertTwoFactorAttemptAllowed, clearTwoFactorFailures, recordTwoFactorFailure } from './two-factor-throttle.js';
import {
  deleteRecoveryCodes,
  disableTwoFactorRow,
  enablePendingSecret,
  findTwoFactor,
  findUserNames,
  insertRecoveryCodes,
  lockUnsealedSecrets,
  setPendingSecret,
  setSecrets,
  useRecoveryCode,
  useTotpStep,
  type TwoFactorRow,
} from './two-factor.repository.js';

/** The name authenticator apps show beside the account. */
export const TOTP_ISSUER = 'Flotilla';

// Spec 1 §5 and §8: "two-factor token required", "code invalid", "recovery code required".
export const MESSAGES = {
  codeRequired: 'Two-factor code required',
  codeInvalid: 'Invalid two-factor code',
  recoveryCodeRequired: 'Recovery code required',
  recoveryCodeInvalid: 'Invalid recovery code',
  passwordRequired: 'Password required',
  alreadyEnabled: 'Two-factor authentication is already enabled',
  notEnabled: 'Two-factor authentication is not enabled',
  setupNotStarted: 'Two-factor authentication setup has not been started',
  notPending: 'No two-factor check is pending for this session',
} as const;

function loadTwoFactor(db: Db, userId: number, lock = false): Promise<TwoFactorRow | undefined> {
  return findTwoFactor(db, userId, lock);
}

export async function isTwoFactorEnabled(db: Db, userId: number): Promise<boolean> {
  return !!(await loadTwoFactor(db, userId))?.secret;
}

/**
 * GET /auth/totp/setup: a new secret, kept pending until a code from it is verified (a
 * second call replaces the first secret). Refused while two-factor is on: disable first.
 * Secrets are stored sealed by `box` (infra/crypto/secret-box.ts).
 */
export async function startTwoFactorSetup(db: Db, box: SecretBox, userId: number): Promise<{ secret: string; uri: string }> {
  return db.tx(async (tx) => {
    const user = await findUserNames(tx, userId);
    if (!user) throw new NotFoundError('User not found');
    const current = await loadTwoFactor(tx, userId, true);
    if (current?.secret) throw new BadRequestError(MESSAGES.alreadyEnabled);
    const secret = generateTotpSecret();
    await setPendingSecret(tx, userId, box.seal(secret));
    return { secret, uri: otpauthUri(secret, user.email || user.username, TOTP_ISSUER) };
  });
}

/** Counts a wrong code against the user's attempts (outside the caller's transaction) and throws. */
async function refuse(db: Db, userId: number, now: number, message: string): Promise<never> {
  await recordTwoFactorFailure(db, userId, now);
  throw new BadRequestError(message);
}

/**
 * POST /auth/totp/verify during setup: a code from the pending secret enables two-factor.
 * The code's step is remembered, so the same code cannot then also pass a login.
 */
export async function completeTwoFactorSetup(db: Db, box: SecretBox, userId: number, code: string, now: number): Promise<void> {
  await assertTwoFactorAttemptAllowed(db, userId, now);
  const ok = await db.tx(async (tx) => {
    const row = await loadTwoFactor(tx, userId, true);
    if (row?.secret && !row.pending_secret) throw new BadRequestError(MESSAGES.alreadyEnabled);
    if (!row?.pending_secret) throw new BadRequestError(MESSAGES.setupNotStarted);
    const step = matchTotp(box.open(row.pending_secret), code, now);
    if (step === null) return false;
    await enablePendingSecret(tx, userId, new Date(now), step);
    // A fresh start: codes of an earlier enablement (if any survived) no longer count.
    await deleteRecoveryCodes(tx, userId);
    return true;
  });
  if (!ok) await refuse(db, userId, now, MESSAGES.codeInvalid);
  await clearTwoFactorFailures(db, userId);
}

/**
 * POST /auth/totp/verify at login: a code of the enabled secret within one step of drift,
 * of a later step than the last accepted one (each code works once).
 */
export async function passTwoFactorWithTotp(db: Db, box: SecretBox, userId: number, code: string, now: number): Promise<void> {
  await assertTwoFactorAttemptAllowed(db, userId, now);
  const row = await loadTwoFactor(db, userId);
  if (!row?.secret) throw new BadRequestError(MESSAGES.notEnabled);
  const step = matchTotp(box.open(row.secret), code, now, row.last_used_step);
  // The conditional update makes two concurrent requests with one code succeed once.
  const used = step !== null && (await useTotpStep(db, userId, step));
  if (!used) await refuse(db, userId, now, MESSAGES.codeInvalid);
  await clearTwoFactorFailures(db, userId);
}

/** POST /auth/v1/2fa-recover/verify: an unused recovery code instead of a TOTP code, once. */
export async function passTwoFactorWithRecoveryCode(db: Db, userId: number, code: string, now: number): Promise<void> {
  await assertTwoFactorAttemptAllowed(db, userId, now);
  if (!(await isTwoFactorEnabled(db, userId))) throw new BadRequestError(MESSAGES.notEnabled);
  if (!(await useRecoveryCode(db, userId, hashRecoveryCode(code), new Date(now)))) await refuse(db, userId, now, MESSAGES.recoveryCodeInvalid);
  await clearTwoFactorFailures(db, userId);
}

/**
 * POST /auth/v1/2fa-recover/create: a new set of recovery codes, shown once; every earlier
 * code stops working (spec 1 §4: the confirmation warns of exactly that).
 */
export async function regenerateRecoveryCodes(db: Db, userId: number): Promise<string[]> {
  return db.tx(async (tx) => {
    const row = await loadTwoFactor(tx, userId, true);
    if (!row?.secret) throw new BadRequestError(MESSAGES.notEnabled);
    await deleteRecoveryCodes(tx, userId);
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, generateRecoveryCode);
    await insertRecoveryCodes(tx, userId, codes.map(hashRecoveryCode));
    return codes;
  });
}

/**
 * POST /auth/totp/disable: the account password (checked and rate-limited as every
 * re-verification is: 'invalid_password'), then two-factor and its codes are gone.
 */
export async function disableTwoFactor(db: Db, userId: number, password: string): Promise<void> {
  await checkOwnPassword(db, userId, password);
  await db.tx(async (tx) => {
    const row = await loadTwoFactor(tx, userId, true);
    if (!row?.secret) throw new BadRequestError(MESSAGES.notEnabled);
    await deleteRecoveryCodes(tx, userId);
    await disableTwoFactorRow(tx, userId);
  });
}

/**
 * Seals TOTP secrets stored before sealing existed (plaintext), once at start-up; a no-op
 * when there are none. Sealed values are left alone.
 */
export async function sealPlaintextTwoFactorSecrets(db: Db, box: SecretBox): Promise<number> {
  return db.tx(async (tx) => {
    const rows = await lockUnsealedSecrets(tx, SEALED_PREFIX);
    const seal = (v: string | null) => (v === null || isSealed(v) ? v : box.seal(v));
    for (const r of rows) {
      await setSecrets(tx, r.user, seal(r.secret), seal(r.pending_secret));
    }
    return rows.length;
  });
}
