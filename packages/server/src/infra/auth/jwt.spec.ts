import { createHmac, generateKeyPairSync, sign as signWithKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { JWT_CLOCK_SKEW_SECONDS, JwtVerifier, signJwt, verifyJwt } from './jwt.js';

const SECRET = 'a-secret-that-is-long-enough-for-tests-0123456789';
const claims = { id: 1, authTime: 0, permissions: [] };

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A token with any header, signed (or not) by hand, as an attacker would make it. */
function forged(header: Record<string, unknown>, signature: (input: string) => string): string {
  const iat = Math.floor(Date.now() / 1000);
  const input = `${b64(header)}.${b64({ ...claims, iat, exp: iat + 3600 })}`;
  return `${input}.${signature(input)}`;
}
const hmac = (alg: string) => (input: string) => createHmac(alg, SECRET).update(input).digest('base64url');

describe('verifyJwt', () => {
  it('rejects a token whose iat lies in the future beyond the clock skew', async () => {
    const now = Date.now();
    const future = await signJwt(claims, SECRET, 3600, now + (JWT_CLOCK_SKEW_SECONDS + 60) * 1000);
    await expect(verifyJwt(future, SECRET, now)).rejects.toThrow('Token issued in the future');
  });

  it('accepts a token issued within the clock skew, and one issued now', async () => {
    const now = Date.now();
    expect((await verifyJwt(await signJwt(claims, SECRET, 3600, now + (JWT_CLOCK_SKEW_SECONDS - 5) * 1000), SECRET, now)).id).toBe(1);
    expect((await verifyJwt(await signJwt(claims, SECRET, 3600, now), SECRET, now)).id).toBe(1);
  });

  it('accepts HS256 only: alg none, other HMAC sizes and public-key algorithms are refused', async () => {
    // The allow-list is what keeps these out; each is otherwise well formed.
    expect((await verifyJwt(forged({ alg: 'HS256', typ: 'JWT' }, hmac('sha256')), SECRET)).id).toBe(1);
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    for (const token of [
      forged({ alg: 'none', typ: 'JWT' }, () => ''),
      forged({ alg: 'None', typ: 'JWT' }, () => ''),
      forged({ alg: 'HS384', typ: 'JWT' }, hmac('sha384')),
      forged({ alg: 'HS512', typ: 'JWT' }, hmac('sha512')),
      forged({ alg: 'ES256', typ: 'JWT' }, (input) => signWithKey('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')),
      forged({ typ: 'JWT' }, hmac('sha256')),
    ]) {
      await expect(verifyJwt(token, SECRET), token.split('.')[0]).rejects.toMatchObject({ statusCode: 401 });
    }
  });

  it('refuses a token signed with another secret, a changed payload and a malformed token', async () => {
    const good = await signJwt(claims, SECRET, 3600);
    const [h, , s] = good.split('.');
    const otherPayload = b64({ ...claims, id: 2, iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 3600 });
    for (const token of [await signJwt(claims, `${SECRET}x`, 3600), `${h}.${otherPayload}.${s}`, 'a.b.c', `${h}..${s}`, `${h}.${otherPayload}`]) {
      await expect(verifyJwt(token, SECRET), token).rejects.toMatchObject({ statusCode: 401 });
    }
  });
});

describe('JwtVerifier', () => {
  it('remembers a verified token but still checks its times at every call', async () => {
    const now = Date.now();
    const verifier = new JwtVerifier(SECRET);
    const token = await signJwt(claims, SECRET, 60, now);
    expect((await verifier.verify(token, now)).id).toBe(1);
    expect((await verifier.verify(token, now + 30_000)).id).toBe(1);
    await expect(verifier.verify(token, now + 61_000)).rejects.toThrow('Your authentication token has expired');
    const future = await signJwt(claims, SECRET, 3600, now + (JWT_CLOCK_SKEW_SECONDS + 60) * 1000);
    await expect(verifier.verify(future, now)).rejects.toThrow('Token issued in the future');
    expect((await verifier.verify(future, now + 120_000)).id).toBe(1);
  });

  it('remembers nothing it refused, and each verifier has its own secret', async () => {
    const verifier = new JwtVerifier(SECRET);
    const other = new JwtVerifier(`${SECRET}x`);
    const token = await signJwt(claims, SECRET, 3600);
    expect((await verifier.verify(token)).id).toBe(1);
    for (let i = 0; i < 2; i++) await expect(other.verify(token), `call ${i}`).rejects.toThrow('Invalid token signature');
    const none = forged({ alg: 'none', typ: 'JWT' }, () => '');
    for (let i = 0; i < 2; i++) await expect(verifier.verify(none), `call ${i}`).rejects.toMatchObject({ statusCode: 401 });
  });

  it('stays within its bound', async () => {
    const verifier = new JwtVerifier(SECRET, 3);
    const tokens = await Promise.all([1, 2, 3, 4, 5].map((id) => signJwt({ ...claims, id }, SECRET, 3600)));
    for (const token of tokens) await verifier.verify(token);
    expect((verifier as unknown as { verified: Map<string, unknown> }).verified.size).toBeLessThanOrEqual(3);
    expect((await verifier.verify(tokens[0]!)).id).toBe(1);
  });
});
