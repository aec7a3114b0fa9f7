import { describe, expect, it } from 'vitest';
import { isSealed, SecretBox } from './secret-box.js';

const KEY = 'a-test-secrets-key-of-at-least-32-chars';

describe('SecretBox', () => {
  it('seals to a value without the plaintext and opens it again', () => {
    const box = new SecretBox(KEY);
    const sealed = box.seal('JBSWY3DPEHPK3PXP');
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.open(sealed)).toBe('JBSWY3DPEHPK3PXP');
    // A fresh IV each time: the same secret never seals to the same text.
    expect(box.seal('JBSWY3DPEHPK3PXP')).not.toBe(sealed);
  });

  it('reads a plaintext value from before sealing as it is', () => {
    expect(new SecretBox(KEY).open('JBSWY3DPEHPK3PXP')).toBe('JBSWY3DPEHPK3PXP');
  });

  it('refuses a value sealed under another key, or altered', () => {
    const sealed = new SecretBox(KEY).seal('secret');
    expect(() => new SecretBox(`${KEY}-other`).open(sealed)).toThrow();
    const flipped = sealed.slice(0, -2) + (sealed.at(-2) === 'A' ? 'B' : 'A') + sealed.at(-1);
    expect(() => new SecretBox(KEY).open(flipped)).toThrow();
  });

  it('has a check value that tells keys apart, and refuses short keys', () => {
    expect(new SecretBox(KEY).checkValue).toBe(new SecretBox(KEY).checkValue);
    expect(new SecretBox(KEY).checkValue).not.toBe(new SecretBox(`${KEY}-other`).checkValue);
    expect(() => new SecretBox('short')).toThrow(/32 characters/);
  });
});
