import { describe, expect, it } from 'vitest';
import { buildAssertionXml, generateSigningCredentials, signAssertion, tamper, wrapInResponse } from '../../../test/support/saml-idp.js';
import { assertionIdentity, profileIdentity, responseProblem } from './saml-response-checks.js';

const credentials = generateSigningCredentials();
const ACS = 'https://fleet.example.com/auth/saml/acme/callback';
const ISSUER = 'https://idp.example.com/metadata';
const base = { acsUrl: ACS, audience: 'https://fleet.example.com/auth/saml/acme', inResponseTo: '_req1', issuer: ISSUER, user: { email: 'ann@corp.example.com' } };
const response = (options: Partial<typeof base> & { algorithm?: 'sha1' | 'sha256' | 'sha512'; destination?: string | null } = {}) =>
  wrapInResponse(signAssertion(buildAssertionXml({ ...base, ...options }), credentials, options.algorithm ?? 'sha256'), {
    ...base,
    ...options,
    credentials,
  });
const expected = { acsUrl: ACS, issuer: ISSUER };

describe('responseProblem', () => {
  it('passes a well-formed signed response', async () => {
    expect(await responseProblem(response(), expected)).toBeNull();
    expect(await responseProblem(response({ algorithm: 'sha512' }), expected)).toBeNull();
    expect(await responseProblem(response({ destination: null }), expected)).toBeNull();
  });

  it('refuses SHA-1, two assertions, comments, a wrong destination, recipient or issuer, non-responses', async () => {
    expect(await responseProblem(response({ algorithm: 'sha1' }), expected)).toMatch(/signature algorithm not allowed/);
    expect(await responseProblem(tamper.unsignedBesideSigned(response(), { ...base, user: { email: 'eve@x.test' } }), expected)).toMatch(/exactly one assertion/);
    expect(await responseProblem(tamper.commentInNameId(response(), 'ann@'), expected)).toMatch(/comments/);
    expect(await responseProblem(tamper.movedSignature(response(), { email: 'eve@x.test' }), expected)).toMatch(/exactly one assertion/);
    expect(await responseProblem(response({ destination: 'https://else.example.com/acs' }), expected)).toMatch(/Destination/);
    expect(await responseProblem(response({ acsUrl: 'https://else.example.com/acs', destination: ACS }), expected)).toMatch(/Recipient/);
    expect(await responseProblem(response({ issuer: 'https://else.example.com' }), expected)).toMatch(/Issuer/);
    expect(await responseProblem('<not-saml/>', expected)).toBe('not a SAML Response');
    expect(await responseProblem('<<<', expected)).not.toBeNull();
  });
});

describe('assertionIdentity and profileIdentity', () => {
  it('reads the assertion id and its earliest NotOnOrAfter', async () => {
    const issuedAt = new Date('2026-01-01T10:00:00Z');
    const xml = buildAssertionXml({ ...base, issuedAt, validForMs: 120_000, assertionId: '_a1' });
    expect(await assertionIdentity(xml)).toEqual({ id: '_a1', notOnOrAfter: new Date('2026-01-01T10:02:00Z') });
  });

  it('takes the e-mail from the usual attributes, else an e-mail-like NameID; the name from display or first/last names', () => {
    expect(profileIdentity({ email: 'a@x.test', displayName: 'Ann A' }, 'id-1')).toEqual({ email: 'a@x.test', displayName: 'Ann A' });
    expect(profileIdentity({ 'urn:oid:0.9.2342.19200300.100.1.3': ['b@x.test'], firstName: 'Bo', lastName: 'B' }, 'id-2')).toEqual({
      email: 'b@x.test',
      displayName: 'Bo B',
    });
    expect(profileIdentity({}, 'c@x.test')).toEqual({ email: 'c@x.test', displayName: undefined });
    expect(profileIdentity({}, 'opaque-id')).toEqual({ email: undefined, displayName: undefined });
  });
});

describe('the test identity provider’s credentials', () => {
  // One random serial in 128 began with 0x00 before a byte below 0x80: not DER, so Node's
  // X509Certificate (and xml-crypto, signing) refused the certificate and an e2e sign-in failed.
  it('make a certificate Node reads, whatever the random serial begins with', async () => {
    const { X509Certificate } = await import('node:crypto');
    for (const first of [0x00, 0x7f, 0x80, 0xff]) {
      const c = generateSigningCredentials('serial test', Buffer.from([first, 0x05, 1, 2, 3, 4, 5, 6]));
      const cert = new X509Certificate(c.certificate);
      // Positive and minimal: the first byte is 01–7F, the rest as given.
      expect(cert.serialNumber).toMatch(/^(0[1-9A-F]|[1-7][0-9A-F])05010203040506$/);
      expect(() => signAssertion(buildAssertionXml(base), c)).not.toThrow();
    }
  });
});
