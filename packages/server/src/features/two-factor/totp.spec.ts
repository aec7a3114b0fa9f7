import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, generateTotpSecret, hotp, matchTotp, otpauthUri, totpAt, totpStep } from './totp.js';

// RFC 6238 Appendix B, SHA1 rows: the seed is the ASCII string "12345678901234567890".
// The RFC prints 8 digits; 6-digit codes are the same value modulo 10^6 (its last 6 digits).
const RFC_SEED = Buffer.from('12345678901234567890', 'ascii');
const RFC_VECTORS: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP (RFC 6238, HMAC-SHA1)', () => {
  it.each(RFC_VECTORS)('matches the RFC vector at T=%i with 8 digits', (seconds, code) => {
    expect(hotp(RFC_SEED, totpStep(seconds * 1000), 8)).toBe(code);
  });

  it.each(RFC_VECTORS)('gives the last 6 digits of the RFC vector at T=%i', (seconds, code) => {
    const secret = base32Encode(RFC_SEED);
    expect(totpAt(secret, totpStep(seconds * 1000))).toBe(code.slice(-6));
  });

  it('encodes the RFC seed as the well-known base32 secret and back', () => {
    expect(base32Encode(RFC_SEED)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode('gezd gnbv gy3t qojq gezd gnbv gy3t qojq')).toEqual(RFC_SEED);
    expect(() => base32Decode('ABC1')).toThrow(/base32/);
  });

  it('generates 160-bit secrets (32 base32 characters), different each time', () => {
    const a = generateTotpSecret();
    expect(a).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(a)).toHaveLength(20);
    expect(generateTotpSecret()).not.toBe(a);
  });
});

describe('matchTotp', () => {
  const secret = base32Encode(RFC_SEED);
  const now = 1111111111 * 1000;
  const step = totpStep(now);

  it('accepts the current step and one step of drift either side', () => {
    expect(matchTotp(secret, totpAt(secret, step), now)).toBe(step);
    expect(matchTotp(secret, totpAt(secret, step - 1), now)).toBe(step - 1);
    expect(matchTotp(secret, totpAt(secret, step + 1), now)).toBe(step + 1);
  });

  it('refuses two steps of drift', () => {
    expect(matchTotp(secret, totpAt(secret, step - 2), now)).toBeNull();
    expect(matchTotp(secret, totpAt(secret, step + 2), now)).toBeNull();
  });

  it('refuses a code of a step already used, and older ones', () => {
    expect(matchTotp(secret, totpAt(secret, step), now, step)).toBeNull();
    expect(matchTotp(secret, totpAt(secret, step - 1), now, step)).toBeNull();
    expect(matchTotp(secret, totpAt(secret, step + 1), now, step)).toBe(step + 1);
  });

  it('refuses malformed codes', () => {
    expect(matchTotp(secret, '', now)).toBeNull();
    expect(matchTotp(secret, '12345', now)).toBeNull();
    expect(matchTotp(secret, `${totpAt(secret, step)}0`, now)).toBeNull();
    expect(matchTotp(secret, 'abcdef', now)).toBeNull();
  });

  it('builds an otpauth:// URI carrying the secret and the parameters', () => {
    const uri = new URL(otpauthUri(secret, 'ann@example.com', 'Flotilla'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Flotilla:ann@example.com');
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      secret,
      issuer: 'Flotilla',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
  });
});
