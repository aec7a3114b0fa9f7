import { createHmac } from 'node:crypto';

/*
 * The test's own RFC 6238 TOTP (HMAC-SHA1, 6 digits, 30 s), to type codes the way an
 * authenticator app would. Deliberately independent of the server's implementation.
 */
const STEP_MS = 30_000;

function base32ToBytes(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const ch of text.replace(/[\s=]/g, '').toUpperCase()) {
    const v = alphabet.indexOf(ch);
    if (v < 0) throw new Error(`not base32: ${ch}`);
    bits += v.toString(2).padStart(5, '0');
  }
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

export const totpStep = (nowMs = Date.now()) => Math.floor(nowMs / STEP_MS);

/** The 6-digit code of a base32 secret (a pairing code, spaces allowed) at a step. */
export function totpCode(secret: string, step = totpStep()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', base32ToBytes(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/**
 * The server accepts each step once. A code for a step after `lastUsedStep` that is at most
 * one step ahead of now (the server allows one step of drift): no need to wait 30 s.
 */
export function nextTotpCode(secret: string, lastUsedStep: number): { code: string; step: number } {
  const step = Math.max(totpStep(), lastUsedStep + 1);
  return { code: totpCode(secret, step), step };
}
