import { randomInt } from 'node:crypto';

/** Letters and digits only: a secret pasted into a shell or a config tool never reads as an option. */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const BITS_PER_CHAR = Math.log2(ALPHABET.length);

/**
 * A random secret of letters and digits (issue 22) with at least `bits` bits of entropy: the
 * one generator for everything a person may copy (API, provisioning and device keys,
 * generated passwords, tokens in mailed links). Each character is drawn uniformly
 * (crypto.randomInt rejects biased draws), so 192 bits give 33 characters.
 */
export function alphanumericSecret(bits: number): string {
  const length = Math.ceil(bits / BITS_PER_CHAR);
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}
