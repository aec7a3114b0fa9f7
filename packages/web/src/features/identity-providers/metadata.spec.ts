import { readFileSync } from 'node:fs';
import { IDP_MESSAGES, IDP_METADATA_MAX_BYTES, normalizeCertificate } from '@flotilla/model';
import { DOMParser as XmlDomParser } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { isXmlFile, metadataFileProblem, parseIdpMetadata, readIdpMetadataFile, type XmlParser } from './metadata';

// The unit tier runs in Node, which has no DOMParser: a standards DOM parser stands in for the browser's.
const quiet = { warning: () => undefined, error: () => undefined };
const parser: XmlParser = { parseFromString: (text) => new XmlDomParser({ errorHandler: quiet }).parseFromString(text, 'text/xml') as unknown as Document };

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const metadata = fixture('idp-metadata.xml');
const signingPem = fixture('signing-certificate.pem');

const MD = 'xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#"';
const certBody = signingPem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
function entity(inner: string, entityId = 'urn:test:idp') {
  return `<md:EntityDescriptor ${MD} entityID="${entityId}"><md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">${inner}</md:IDPSSODescriptor></md:EntityDescriptor>`;
}
const key = (use: string | null, body = certBody) =>
  `<md:KeyDescriptor${use ? ` use="${use}"` : ''}><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${body}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`;
const sso = (binding: string, location: string) =>
  `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:${binding}" Location="${location}"/>`;

describe('parseIdpMetadata', () => {
  it('reads an identity provider’s metadata: entityID, the Redirect sign-in location, the signing certificate as 64-character PEM', () => {
    const result = parseIdpMetadata(metadata, parser);
    expect(result).toEqual({
      ok: true,
      fields: {
        issuer: 'https://idp.example.test/saml/metadata',
        entryPoint: 'https://idp.example.test/saml/sso/redirect',
        certificate: normalizeCertificate(signingPem),
      },
    });
    if (!result.ok) return;
    // Not the encryption key listed first, and wrapped at 64 like the server stores it.
    expect(result.fields.certificate.split('\n').slice(1, -2).every((line) => line.length === 64)).toBe(true);
    expect(result.fields.certificate).toBe(signingPem.trim());
  });

  it('takes the HTTP-POST location when there is no HTTP-Redirect one, and ignores other bindings', () => {
    const xml = entity(key('signing') + sso('SOAP', 'https://idp.test/soap') + sso('HTTP-POST', 'https://idp.test/post'));
    expect(parseIdpMetadata(xml, parser)).toMatchObject({ ok: true, fields: { entryPoint: 'https://idp.test/post' } });
  });

  it('accepts a KeyDescriptor without `use` (signing and encryption) when none says signing', () => {
    const xml = entity(key('encryption', 'AAAA') + key(null) + sso('HTTP-Redirect', 'https://idp.test/r'));
    expect(parseIdpMetadata(xml, parser)).toMatchObject({ ok: true, fields: { certificate: signingPem.trim() } });
  });

  it('finds the identity provider inside an EntitiesDescriptor, skipping a service provider entity', () => {
    const sp = `<md:EntityDescriptor entityID="urn:test:sp"><md:SPSSODescriptor protocolSupportEnumeration="x"/></md:EntityDescriptor>`;
    const xml = `<md:EntitiesDescriptor ${MD}>${sp}${entity(key('signing') + sso('HTTP-Redirect', 'https://idp.test/r'), 'urn:test:the-idp').replace(` ${MD}`, '')}</md:EntitiesDescriptor>`;
    expect(parseIdpMetadata(xml, parser)).toMatchObject({ ok: true, fields: { issuer: 'urn:test:the-idp' } });
  });

  const failures: [string, string][] = [
    ['text that is not XML', 'this is not metadata'],
    ['XML that is not SAML metadata', '<html><body>Sign in</body></html>'],
    ['metadata without a sign-in service', entity(key('signing'))],
    ['metadata with only a SOAP sign-in service', entity(key('signing') + sso('SOAP', 'https://idp.test/soap'))],
    ['metadata without a signing certificate', entity(key('encryption') + sso('HTTP-Redirect', 'https://idp.test/r'))],
    ['a certificate that is not base64', entity(key('signing', 'not*base64!') + sso('HTTP-Redirect', 'https://idp.test/r'))],
    ['an entity without an entityID', entity(key('signing') + sso('HTTP-Redirect', 'https://idp.test/r'), '')],
    ['a service provider’s metadata', `<md:EntityDescriptor ${MD} entityID="urn:sp"><md:SPSSODescriptor protocolSupportEnumeration="x"/></md:EntityDescriptor>`],
  ];
  it.each(failures)('refuses %s with failed_to_parse_saml_metadata', (_what, xml) => {
    expect(parseIdpMetadata(xml, parser)).toEqual({ ok: false, message: IDP_MESSAGES.failed_to_parse_saml_metadata });
  });

  it('refuses a document the parser reports as a parse error (the browser’s <parsererror>)', () => {
    const browserLike: XmlParser = { parseFromString: () => parser.parseFromString('<parsererror>bad</parsererror>', 'text/xml') };
    expect(parseIdpMetadata(metadata, browserLike)).toEqual({ ok: false, message: IDP_MESSAGES.failed_to_parse_saml_metadata });
  });
});

describe('the metadata file', () => {
  it('is XML by its type, or by its .xml name when the browser gives no type', () => {
    expect(isXmlFile({ name: 'a.bin', type: 'application/xml' })).toBe(true);
    expect(isXmlFile({ name: 'a', type: 'text/xml' })).toBe(true);
    expect(isXmlFile({ name: 'a', type: 'application/samlmetadata+xml' })).toBe(true);
    expect(isXmlFile({ name: 'metadata.XML', type: '' })).toBe(true);
    expect(isXmlFile({ name: 'metadata.json', type: 'application/json' })).toBe(false);
    expect(isXmlFile({ name: 'metadata.xml', type: 'text/plain' })).toBe(false);
    expect(isXmlFile({ name: 'metadata.txt', type: '' })).toBe(false);
  });

  it('may be at most 1,000,000 bytes', () => {
    expect(metadataFileProblem({ name: 'm.xml', type: 'text/xml', size: IDP_METADATA_MAX_BYTES })).toBeUndefined();
    expect(metadataFileProblem({ name: 'm.xml', type: 'text/xml', size: IDP_METADATA_MAX_BYTES + 1 })).toBe(IDP_MESSAGES.metadata_too_large);
    expect(metadataFileProblem({ name: 'm.pdf', type: 'application/pdf', size: 10 })).toBe(IDP_MESSAGES.metadata_not_xml);
  });

  it('is read into the fields; a too large or non-XML file is refused before it is read', async () => {
    await expect(readIdpMetadataFile(new File([metadata], 'idp.xml', { type: 'text/xml' }), parser)).resolves.toMatchObject({
      ok: true,
      fields: { issuer: 'https://idp.example.test/saml/metadata' },
    });
    const big = new File(['<a/>'.padEnd(IDP_METADATA_MAX_BYTES + 1, ' ')], 'big.xml', { type: 'text/xml' });
    await expect(readIdpMetadataFile(big, parser)).resolves.toEqual({ ok: false, message: IDP_MESSAGES.metadata_too_large });
    await expect(readIdpMetadataFile(new File([metadata], 'idp.json', { type: 'application/json' }), parser)).resolves.toEqual({
      ok: false,
      message: IDP_MESSAGES.metadata_not_xml,
    });
  });
});
