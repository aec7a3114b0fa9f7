import { createHash, randomBytes } from 'node:crypto';

/** How many recovery codes one generation yields (spec 1: "generate recovery codes"; count not shown). */
export const RECOVERY_CODE_COUNT = 10;

// No 0/o, 1/l/i: codes are copied from paper by hand.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A code such as `k3m9x-7qtwd`: 10 characters from 31 (about 49 bits), grouped for reading. */
export function generateRecoveryCode(): string {
  const bytes = randomBytes(10);
  let code = '';
  // 256 is not a multiple of 31; the slight bias of `% 31` costs well under a bit.
  for (const b of bytes) code += ALPHABET[b % ALPHABET.length];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** What is stored and compared: case, spaces and dashes do not matter when typed. */
export function normalizeRecoveryCode(code: string): string {
  return code.replace(/[\s-]/g, '').toLowerCase();
}

/** sha256 is enough here: the codes are random, not chosen by people. */
export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(normalizeRecoveryCode(code)).digest('hex');
}
