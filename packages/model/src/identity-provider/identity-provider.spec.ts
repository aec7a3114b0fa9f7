import { describe, expect, it } from 'vitest';
import {
  CERTIFICATE_BEGIN,
  CERTIFICATE_END,
  IDP_BLOCKED_BY_SAML_ACCOUNTS,
  IDP_MESSAGES,
  SSO_IDENTIFIER_MIN_LENGTH,
  canAdministerIdentityProvider,
  canReadIdentityProvider,
  certificateProblem,
  entryPointProblem,
  identityProviderProblem,
  isValidCertificate,
  isValidEntryPoint,
  issuerProblem,
  normalizeCertificate,
  ssoIdentifierProblem,
} from './identity-provider.js';

// 200 base64 characters: wraps to 64 + 64 + 64 + 8.
const BODY = 'MIIC' + 'A'.repeat(192) + 'Zg==';
const pem = (body: string) => `${CERTIFICATE_BEGIN}\n${body}\n${CERTIFICATE_END}`;

describe('SSO identifier rule', () => {
  it('accepts lowercase letters, digits, underscore and hyphen from 3 characters', () => {
    expect(SSO_IDENTIFIER_MIN_LENGTH).toBe(3);
    for (const ok of ['abc', 'acme-corp_2', '123', 'a-_']) expect(ssoIdentifierProblem(ok)).toBeUndefined();
  });

  it('refuses a missing, short, long or badly written identifier with its message', () => {
    expect(ssoIdentifierProblem(undefined)).toBe(IDP_MESSAGES.sso_identifier_required);
    expect(ssoIdentifierProblem('   ')).toBe(IDP_MESSAGES.sso_identifier_required);
    expect(ssoIdentifierProblem('ab')).toBe(IDP_MESSAGES.sso_identifier_too_short);
    expect(ssoIdentifierProblem('a'.repeat(256))).toBe(IDP_MESSAGES.sso_identifier_too_long);
    for (const bad of ['Acme', 'acme corp', 'acme.corp', 'acmé', 'acme/x', ' acme'])
      expect(ssoIdentifierProblem(bad)).toBe(IDP_MESSAGES.sso_identifier_contains_invalid_characters);
  });
});

describe('entry point', () => {
  it('accepts absolute http and https URLs only', () => {
    expect(isValidEntryPoint('https://idp.example.com/saml/sso')).toBe(true);
    expect(isValidEntryPoint('http://localhost:8080/sso?x=1')).toBe(true);
    for (const bad of ['idp.example.com', '/saml/sso', 'ftp://idp.example.com', 'javascript:alert(1)', 'https://', 'https://a b.com', 42])
      expect(isValidEntryPoint(bad)).toBe(false);
    expect(entryPointProblem('')).toBe(IDP_MESSAGES.entry_point_required);
    expect(entryPointProblem('not a url')).toBe(IDP_MESSAGES.invalid_url);
    expect(entryPointProblem('https://idp.example.com')).toBeUndefined();
  });

  it('requires the issuer', () => {
    expect(issuerProblem('')).toBe(IDP_MESSAGES.issuer_required);
    expect(issuerProblem(null)).toBe(IDP_MESSAGES.issuer_required);
    expect(issuerProblem('https://idp.example.com/metadata')).toBeUndefined();
  });
});

describe('certificate', () => {
  it('stores the block with its markers on their own lines and the body wrapped at 64 characters', () => {
    const oneLine = `${CERTIFICATE_BEGIN}${BODY}${CERTIFICATE_END}`;
    const expected = [CERTIFICATE_BEGIN, BODY.slice(0, 64), BODY.slice(64, 128), BODY.slice(128, 192), BODY.slice(192), CERTIFICATE_END].join(
      '\n',
    );
    expect(normalizeCertificate(oneLine)).toBe(expected);
    // Already wrapped differently, with CRLF and surrounding whitespace: the same stored form.
    const messy = `\r\n  ${CERTIFICATE_BEGIN}\r\n${BODY.slice(0, 50)}\r\n${BODY.slice(50, 150)}\n  ${BODY.slice(150)}\r\n${CERTIFICATE_END}\n\n`;
    expect(normalizeCertificate(messy)).toBe(expected);
    // Idempotent.
    expect(normalizeCertificate(expected)).toBe(expected);
  });

  it('refuses anything but one marked block', () => {
    const bad = [
      BODY, // a bare body: the markers are required
      `${CERTIFICATE_BEGIN}\n${BODY}`,
      `${BODY}\n${CERTIFICATE_END}`,
      `${pem(BODY)}\n${pem(BODY)}`,
      `${CERTIFICATE_BEGIN}\n${CERTIFICATE_BEGIN}\n${BODY}\n${CERTIFICATE_END}`,
      `${CERTIFICATE_BEGIN}\n${BODY}\n${CERTIFICATE_END}\n${CERTIFICATE_END}`,
      `junk ${pem(BODY)}`,
      `${pem(BODY)} junk`,
      pem(''),
      pem('not base64!'),
      pem('abc'), // not a whole number of base64 quanta
      `-----BEGIN RSA PRIVATE KEY-----\n${BODY}\n-----END RSA PRIVATE KEY-----`,
    ];
    for (const b of bad) {
      expect(normalizeCertificate(b)).toBeNull();
      expect(isValidCertificate(b)).toBe(false);
      expect(certificateProblem(b)).toBe(IDP_MESSAGES.invalid_certificate_format);
    }
    expect(certificateProblem('')).toBe(IDP_MESSAGES.certificate_required);
    expect(certificateProblem(pem(BODY))).toBeUndefined();
  });
});

describe('identityProviderProblem', () => {
  const good = { sso_identifier: 'acme', entry_point: 'https://idp.example.com/sso', issuer: 'acme-idp', certificate: pem(BODY) };

  it('checks every field of a create, in form order', () => {
    expect(identityProviderProblem(good)).toBeUndefined();
    expect(identityProviderProblem({ ...good, sso_identifier: 'A!' })).toEqual({
      field: 'sso_identifier',
      message: IDP_MESSAGES.sso_identifier_too_short,
    });
    expect(identityProviderProblem({ ...good, entry_point: 'x' })).toEqual({ field: 'entry_point', message: IDP_MESSAGES.invalid_url });
    expect(identityProviderProblem({ ...good, issuer: undefined })).toEqual({ field: 'issuer', message: IDP_MESSAGES.issuer_required });
    expect(identityProviderProblem({ ...good, certificate: 'x' })).toEqual({
      field: 'certificate',
      message: IDP_MESSAGES.invalid_certificate_format,
    });
  });

  it('checks only the fields a patch sends', () => {
    expect(identityProviderProblem({ issuer: 'other' }, true)).toBeUndefined();
    expect(identityProviderProblem({ issuer: '' }, true)).toEqual({ field: 'issuer', message: IDP_MESSAGES.issuer_required });
    expect(identityProviderProblem({ issuer: 'other' })).toEqual({ field: 'sso_identifier', message: IDP_MESSAGES.sso_identifier_required });
  });
});

describe('blocked removal message', () => {
  it('names the number of SAML accounts and how to revoke them', () => {
    const m = IDP_BLOCKED_BY_SAML_ACCOUNTS(3);
    expect(m.startsWith('This action is blocked as the identity provider contains 3 SAML account(s)')).toBe(true);
    expect(m).toContain("sdk.pine.delete({ resource: 'saml_account'");
  });
});

describe('who administers and reads a provider', () => {
  it('administers only when administrator of every organization it authorizes', () => {
    expect(canAdministerIdentityProvider([1, 2], [1, 2, 3])).toBe(true);
    expect(canAdministerIdentityProvider([1, 2], [1])).toBe(false);
    expect(canAdministerIdentityProvider([], [1])).toBe(false);
  });

  it('reads when administrator of any of its organizations', () => {
    expect(canReadIdentityProvider([1, 2], [2])).toBe(true);
    expect(canReadIdentityProvider([1, 2], [3])).toBe(false);
    expect(canReadIdentityProvider([], [1])).toBe(false);
  });
});
