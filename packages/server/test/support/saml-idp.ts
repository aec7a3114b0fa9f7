import { generateKeyPairSync, randomBytes, sign as rsaSign } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';

/**
 * A SAML 2.0 identity provider for tests (issue 20): it signs real assertions with xml-crypto
 * and a freshly generated RSA key and self-signed X.509 certificate.
 *
 * - `GET /metadata`: its EntityDescriptor (IDPSSODescriptor, signing KeyDescriptor,
 *   SingleSignOnService for HTTP-Redirect and HTTP-POST) — what an administrator uploads.
 * - `GET /sso` (HTTP-Redirect: `SAMLRequest` deflated and base64) and `POST /sso` (HTTP-POST):
 *   receives the AuthnRequest and answers an auto-submitting HTML form that POSTs a signed
 *   `SAMLResponse` (and the `RelayState`) to the request's AssertionConsumerServiceURL. The user
 *   signed in is the query's `?email=…&name=…` (an entry point may carry them:
 *   `${ssoUrl}?email=…`), else the one set with `setUser`, else the default of the options.
 *
 * `buildResponse` makes a response directly (for API tests: the signature options, the time
 * window, the audience) and the `tamper` helpers make the classic malicious variants.
 */

// ——— a minimal DER writer for one self-signed certificate ———

function derLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let n = length; n > 0; n >>= 8) bytes.unshift(n & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}
const der = (tag: number, content: Buffer) => Buffer.concat([Buffer.from([tag]), derLength(content.length), content]);
const seq = (...parts: Buffer[]) => der(0x30, Buffer.concat(parts));
const oid = (bytes: number[]) => der(0x06, Buffer.from(bytes));
const SHA256_WITH_RSA = oid([0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0b]);
const COMMON_NAME = oid([0x55, 0x04, 0x03]);
function utcTime(date: Date): Buffer {
  const p = (n: number) => String(n).padStart(2, '0');
  const text = `${p(date.getUTCFullYear() % 100)}${p(date.getUTCMonth() + 1)}${p(date.getUTCDate())}${p(date.getUTCHours())}${p(date.getUTCMinutes())}${p(date.getUTCSeconds())}Z`;
  return der(0x17, Buffer.from(text, 'ascii'));
}
const name = (commonName: string) => seq(der(0x31, seq(COMMON_NAME, der(0x0c, Buffer.from(commonName, 'utf8')))));

export interface SigningCredentials {
  /** PKCS#8 PEM. */
  privateKey: string;
  /** The self-signed X.509 certificate, PEM (64-character lines). */
  certificate: string;
}

/** A 2048-bit RSA key and a self-signed certificate (SHA-256 with RSA) valid for ten years. */
export function generateSigningCredentials(commonName = 'Flotilla test identity provider', serialBytes: Buffer = randomBytes(8)): SigningCredentials {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const serial = Buffer.from(serialBytes);
  // A positive INTEGER in minimal DER: the first byte 0x01–0x7f. (A leading 0x00 before a byte
  // below 0x80 is not DER; Node's X509Certificate refuses it, and one credential in 128 failed.)
  serial.writeUInt8(serial.readUInt8(0) & 0x7f || 1, 0);
  const now = new Date();
  const tbs = seq(
    der(0xa0, der(0x02, Buffer.from([2]))),
    der(0x02, serial),
    seq(SHA256_WITH_RSA, Buffer.from([0x05, 0x00])),
    name(commonName),
    seq(utcTime(new Date(now.getTime() - 86_400_000)), utcTime(new Date(now.getTime() + 10 * 365 * 86_400_000))),
    name(commonName),
    publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = rsaSign('sha256', tbs, privateKey);
  const certificate = seq(tbs, seq(SHA256_WITH_RSA, Buffer.from([0x05, 0x00])), der(0x03, Buffer.concat([Buffer.from([0]), signature])));
  return { privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), certificate: toPem(certificate) };
}

function toPem(body: Buffer): string {
  const lines = body.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}
/** The certificate's base64 body on one line (as in metadata and KeyInfo). */
export const certificateBody = (pem: string) => pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');

// ——— responses ———

const NS = {
  protocol: 'urn:oasis:names:tc:SAML:2.0:protocol',
  assertion: 'urn:oasis:names:tc:SAML:2.0:assertion',
  ds: 'http://www.w3.org/2000/09/xmldsig#',
};
const ALGORITHMS = {
  sha1: { signature: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1', digest: 'http://www.w3.org/2000/09/xmldsig#sha1' },
  sha256: { signature: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256', digest: 'http://www.w3.org/2001/04/xmlenc#sha256' },
  sha512: { signature: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512', digest: 'http://www.w3.org/2001/04/xmlenc#sha512' },
} as const;
export type SamlTestAlgorithm = keyof typeof ALGORITHMS;

const xmlEscape = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
export const samlId = () => `_${randomBytes(16).toString('hex')}`;

export interface SamlUser {
  email: string;
  name?: string;
  /** The NameID (default: the email). */
  nameId?: string;
}

export interface ResponseOptions {
  /** The ACS URL: the response's Destination and the SubjectConfirmationData's Recipient. */
  acsUrl: string;
  /** The SP entity id the assertion is restricted to. */
  audience: string;
  /** The AuthnRequest's id (null: an unsolicited response). */
  inResponseTo: string | null;
  user: SamlUser;
  /** The Issuer (default: the IdP's entity id). */
  issuer?: string;
  /** The moment the assertion is issued (default: now). */
  issuedAt?: Date;
  /** How long the assertion is valid after issuedAt, ms (default 5 minutes). */
  validForMs?: number;
  assertionId?: string;
  /** Default true. */
  signAssertion?: boolean;
  /** Default false. */
  signResponse?: boolean;
  /** Default sha256. */
  algorithm?: SamlTestAlgorithm;
  /** Sign with these credentials instead of the IdP's (a foreign certificate). */
  credentials?: SigningCredentials;
  /** Default: `acsUrl`; null leaves the attribute out. */
  destination?: string | null;
}

function signElement(xml: string, localName: 'Assertion' | 'Response', credentials: SigningCredentials, algorithm: SamlTestAlgorithm): string {
  const signer = new SignedXml({
    privateKey: credentials.privateKey,
    publicCert: credentials.certificate,
    signatureAlgorithm: ALGORITHMS[algorithm].signature,
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  const xpath = `//*[local-name(.)='${localName}' and namespace-uri(.)='${localName === 'Assertion' ? NS.assertion : NS.protocol}']`;
  signer.addReference({
    xpath,
    digestAlgorithm: ALGORITHMS[algorithm].digest,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
  });
  // The Signature goes right after the element's Issuer (the schema's place).
  signer.computeSignature(xml, { location: { reference: `${xpath}/*[local-name(.)='Issuer']`, action: 'after' } });
  return signer.getSignedXml();
}

export function buildAssertionXml(options: ResponseOptions & { issuer: string }): string {
  const issuedAt = options.issuedAt ?? new Date();
  const notBefore = new Date(issuedAt.getTime() - 30_000).toISOString();
  const notOnOrAfter = new Date(issuedAt.getTime() + (options.validForMs ?? 5 * 60_000)).toISOString();
  const { user } = options;
  const inResponseTo = options.inResponseTo == null ? '' : ` InResponseTo="${xmlEscape(options.inResponseTo)}"`;
  const attribute = (attrName: string, value: string) =>
    `<saml:Attribute Name="${attrName}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic"><saml:AttributeValue>${xmlEscape(value)}</saml:AttributeValue></saml:Attribute>`;
  const [firstName, ...rest] = (user.name ?? '').split(' ');
  return (
    `<saml:Assertion xmlns:saml="${NS.assertion}" ID="${options.assertionId ?? samlId()}" Version="2.0" IssueInstant="${issuedAt.toISOString()}">` +
    `<saml:Issuer>${xmlEscape(options.issuer)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${xmlEscape(user.nameId ?? user.email)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData${inResponseTo} NotOnOrAfter="${notOnOrAfter}" Recipient="${xmlEscape(options.acsUrl)}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${xmlEscape(options.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${issuedAt.toISOString()}" SessionIndex="${samlId()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement>${attribute('email', user.email)}${user.name ? attribute('displayName', user.name) + attribute('firstName', firstName ?? '') + attribute('lastName', rest.join(' ')) : ''}</saml:AttributeStatement>` +
    `</saml:Assertion>`
  );
}

/** Wraps assertion XML (signed or not) in a samlp:Response, optionally signing the response. */
export function wrapInResponse(
  assertionXml: string,
  options: Pick<ResponseOptions, 'acsUrl' | 'inResponseTo' | 'issuedAt' | 'destination' | 'signResponse' | 'algorithm' | 'credentials'> & {
    issuer: string;
    credentials: SigningCredentials;
  },
): string {
  const issuedAt = (options.issuedAt ?? new Date()).toISOString();
  const destination = options.destination === null ? '' : ` Destination="${xmlEscape(options.destination ?? options.acsUrl)}"`;
  const inResponseTo = options.inResponseTo == null ? '' : ` InResponseTo="${xmlEscape(options.inResponseTo)}"`;
  const response =
    `<samlp:Response xmlns:samlp="${NS.protocol}" xmlns:saml="${NS.assertion}" ID="${samlId()}" Version="2.0" IssueInstant="${issuedAt}"${destination}${inResponseTo}>` +
    `<saml:Issuer>${xmlEscape(options.issuer)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    assertionXml +
    `</samlp:Response>`;
  return options.signResponse ? signElement(response, 'Response', options.credentials, options.algorithm ?? 'sha256') : response;
}

/** Signs assertion XML (as the IdP would). */
export const signAssertion = (assertionXml: string, credentials: SigningCredentials, algorithm: SamlTestAlgorithm = 'sha256') =>
  signElement(assertionXml, 'Assertion', credentials, algorithm);

/** The malicious variants of the API tests, each made from a signed response. */
export const tamper = {
  /**
   * XML signature wrapping: an unsigned assertion for `user` placed before the genuinely signed
   * one (a parser that reads "the first assertion" but checks "a signature" is fooled).
   */
  unsignedBesideSigned(signedResponseXml: string, forged: ResponseOptions & { issuer: string }): string {
    const forgedAssertion = buildAssertionXml(forged);
    return signedResponseXml.replace(/(<samlp:Status>.*?<\/samlp:Status>)/, `$1${forgedAssertion}`);
  },
  /**
   * A comment inserted into the signed NameID (`victim@example.com<!---->.evil.test`): exclusive
   * canonicalization drops comments, so the signature still verifies, and a parser reading only
   * the first text node sees the victim's address.
   */
  commentInNameId(signedResponseXml: string, at: string): string {
    return signedResponseXml.replace(/(<saml:NameID[^>]*>)([^<]*)/, (_m, open: string, text: string) => {
      const index = text.indexOf(at);
      if (index < 0) throw new Error(`"${at}" is not in the NameID "${text}"`);
      return `${open}${text.slice(0, index + at.length)}<!---->${text.slice(index + at.length)}`;
    });
  },
  /**
   * The signature moved: the genuinely signed assertion is tucked inside its own Signature's
   * ds:Object, and a forged assertion carrying the same ID and that Signature takes its place.
   */
  movedSignature(signedResponseXml: string, forgedUser: SamlUser): string {
    const assertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(signedResponseXml)?.[0];
    if (!assertion) throw new Error('no assertion');
    const signature = /<(\w+:)?Signature[\s\S]*?<\/(\w+:)?Signature>/.exec(assertion)?.[0];
    if (!signature) throw new Error('the assertion is not signed');
    const original = assertion.replace(signature, '');
    const forged = original
      .replace(/(<saml:NameID[^>]*>)[^<]*/, `$1${xmlEscape(forgedUser.nameId ?? forgedUser.email)}`)
      .replace(/(<saml:Attribute Name="email"[^>]*><saml:AttributeValue>)[^<]*/, `$1${xmlEscape(forgedUser.email)}`);
    const close = /<\/(\w+:)?Signature>$/.exec(signature)?.[0] ?? '</Signature>';
    const prefix = close.slice(2, close.indexOf('Signature'));
    const wrapped = `${signature.slice(0, -close.length)}<${prefix}Object>${original}</${prefix}Object>${close}`;
    const withSignature = forged.replace(/(<saml:Issuer>[^<]*<\/saml:Issuer>)/, `$1${wrapped}`);
    return signedResponseXml.replace(assertion, withSignature);
  },
};

// ——— the HTTP identity provider ———

export interface TestSamlIdpOptions {
  /** Default: an ephemeral port on 127.0.0.1. */
  port?: number;
  host?: string;
  /** Default: `${baseUrl}/metadata`. */
  entityId?: string;
  /** The user signed in when the request names none (default idp-user@example.com). */
  defaultUser?: SamlUser;
  /** Also sign the Response envelope (default false). */
  signResponse?: boolean;
  credentials?: SigningCredentials;
}

export interface ReceivedAuthnRequest {
  id: string;
  acsUrl: string;
  issuer: string | null;
  destination: string | null;
  relayState: string | null;
  binding: 'redirect' | 'post';
  /** Whether the redirect carried a Signature parameter. */
  signed: boolean;
}

export class TestSamlIdp {
  readonly credentials: SigningCredentials;
  /** Every AuthnRequest received, oldest first. */
  readonly requests: ReceivedAuthnRequest[] = [];
  private server: Server | null = null;
  private user: SamlUser;
  private base = '';
  private entity: string | undefined;
  private readonly signResponses: boolean;

  constructor(private readonly options: TestSamlIdpOptions = {}) {
    this.credentials = options.credentials ?? generateSigningCredentials();
    this.user = options.defaultUser ?? { email: 'idp-user@example.com', name: 'Idp User' };
    this.entity = options.entityId;
    this.signResponses = options.signResponse ?? false;
  }

  /** Starts listening; resolves to itself. */
  async start(): Promise<this> {
    const server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.base = `http://${this.options.host ?? '127.0.0.1'}:${(server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  get baseUrl(): string {
    if (!this.base) throw new Error('the test identity provider is not started');
    return this.base;
  }
  get entityId(): string {
    return this.entity ?? `${this.baseUrl}/metadata`;
  }
  /** The single sign-on URL (both bindings): an identity provider's `entry_point`. */
  get ssoUrl(): string {
    return `${this.baseUrl}/sso`;
  }
  get metadataUrl(): string {
    return `${this.baseUrl}/metadata`;
  }
  get certificate(): string {
    return this.credentials.certificate;
  }

  /** The user signed in from now on when a request names none. */
  setUser(user: SamlUser): void {
    this.user = user;
  }

  /** An entry point that signs in this user whatever `setUser` says. */
  entryPointFor(user: SamlUser): string {
    const query = new URLSearchParams({ email: user.email, ...(user.name ? { name: user.name } : {}), ...(user.nameId ? { nameId: user.nameId } : {}) });
    return `${this.ssoUrl}?${query}`;
  }

  metadataXml(): string {
    const cert = certificateBody(this.credentials.certificate);
    return (
      `<?xml version="1.0" encoding="UTF-8"?>` +
      `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="${NS.ds}" entityID="${xmlEscape(this.entityId)}">` +
      `<md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
      `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${cert}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
      `<md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>` +
      `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${xmlEscape(this.ssoUrl)}"/>` +
      `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${xmlEscape(this.ssoUrl)}"/>` +
      `</md:IDPSSODescriptor></md:EntityDescriptor>`
    );
  }

  /** A response of this IdP (signed with its key unless `credentials` says otherwise). */
  buildResponse(options: ResponseOptions): string {
    const issuer = options.issuer ?? this.entityId;
    const credentials = options.credentials ?? this.credentials;
    const algorithm = options.algorithm ?? 'sha256';
    let assertion = buildAssertionXml({ ...options, issuer });
    if (options.signAssertion ?? true) assertion = signAssertion(assertion, credentials, algorithm);
    return wrapInResponse(assertion, { ...options, issuer, credentials, algorithm, signResponse: options.signResponse ?? false });
  }

  /** Parses an AuthnRequest (the `SAMLRequest` of either binding). */
  static parseAuthnRequest(samlRequest: string, binding: 'redirect' | 'post'): Omit<ReceivedAuthnRequest, 'relayState' | 'binding' | 'signed'> {
    const raw = Buffer.from(samlRequest, 'base64');
    const xml = binding === 'redirect' ? inflateRawSync(raw).toString('utf8') : raw.toString('utf8');
    const root = /<(\w+:)?AuthnRequest\b[^>]*>/.exec(xml)?.[0];
    if (!root) throw new Error('not an AuthnRequest');
    const attr = (attrName: string) => new RegExp(`\\s${attrName}="([^"]*)"`).exec(root)?.[1] ?? null;
    const id = attr('ID');
    const acsUrl = attr('AssertionConsumerServiceURL');
    if (!id || !acsUrl) throw new Error('the AuthnRequest has no ID or AssertionConsumerServiceURL');
    const issuer = /<(\w+:)?Issuer\b[^>]*>([^<]*)</.exec(xml)?.[2] ?? null;
    const unescape = (value: string) => value.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    return { id: unescape(id), acsUrl: unescape(acsUrl), issuer: issuer && unescape(issuer), destination: attr('Destination') };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.baseUrl);
    if (req.method === 'GET' && url.pathname === '/metadata') {
      res.writeHead(200, { 'content-type': 'application/samlmetadata+xml' }).end(this.metadataXml());
      return;
    }
    if (url.pathname !== '/sso' || (req.method !== 'GET' && req.method !== 'POST')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    let params = url.searchParams;
    let binding: 'redirect' | 'post' = 'redirect';
    if (req.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      params = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      for (const [key, value] of url.searchParams) if (!params.has(key)) params.set(key, value);
      binding = 'post';
    }
    const samlRequest = params.get('SAMLRequest');
    if (!samlRequest) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('SAMLRequest missing');
      return;
    }
    const request = TestSamlIdp.parseAuthnRequest(samlRequest, binding);
    const relayState = params.get('RelayState');
    this.requests.push({ ...request, relayState, binding, signed: params.has('Signature') });
    const email = params.get('email');
    const user: SamlUser = email ? { email, name: params.get('name') ?? undefined, nameId: params.get('nameId') ?? undefined } : this.user;
    const response = this.buildResponse({
      acsUrl: request.acsUrl,
      audience: request.issuer ?? '',
      inResponseTo: request.id,
      user,
      signResponse: this.signResponses,
    });
    const relayInput = relayState == null ? '' : `<input type="hidden" name="RelayState" value="${xmlEscape(relayState)}">`;
    const html =
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test identity provider</title></head><body>` +
      `<form method="post" action="${xmlEscape(request.acsUrl)}"><input type="hidden" name="SAMLResponse" value="${Buffer.from(response).toString('base64')}">${relayInput}` +
      `<p>Signing in as ${xmlEscape(user.email)}</p><button type="submit">Continue</button></form>` +
      `<script>document.forms[0].submit()</script></body></html>`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  }
}

/** Starts a test identity provider. */
export const startTestSamlIdp = (options: TestSamlIdpOptions = {}) => new TestSamlIdp(options).start();
